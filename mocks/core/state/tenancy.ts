import type { KeyConfig } from '../../config/types.js';

/** Who is calling: the configured key entry the X-API-Key header named. */
export type Caller = KeyConfig;

/**
 * Finds the caller of a request by its API key; undefined when the header is missing or unknown (§5.5).
 *
 * @example
 * const caller = findCaller(config.keys, request.headers.get('X-API-Key'));
 */
export function findCaller(keys: readonly KeyConfig[], presented: string | null): Caller | undefined {
  if (presented === null || presented === '') return undefined;
  return keys.find((entry) => entry.key === presented);
}

/**
 * The space voices live in: one organization in one API environment. Voices are listed, named and
 * deleted per organization (§4.3); environments never see each other's resources (§5.4).
 */
export function voiceSpace(caller: Caller): string {
  let space = voiceSpaces.get(caller);
  if (space === undefined) {
    space = `${caller.organization}\u0000${caller.environment}`;
    voiceSpaces.set(caller, space);
  }
  return space;
}

// A caller is one of the configured keys, and every list request asks for its space.
const voiceSpaces = new WeakMap<Caller, string>();

/** The space uploads live in: organization + project space + environment (§2.2, §5.4). */
export const uploadSpace = (caller: Caller): string =>
  `${caller.organization}\u0000${caller.project}\u0000${caller.environment}`;
