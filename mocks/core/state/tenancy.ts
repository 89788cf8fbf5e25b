import type { KeyConfig } from '../../config/types.js';

/** Who is calling: the configured key entry the X-API-Key header named, with the spaces it works in. */
export interface Caller extends KeyConfig {
  /**
   * The space voices live in: one organization in one API environment. Voices are listed, named and
   * deleted per organization (§4.3); environments never see each other's resources (§5.4).
   */
  readonly voiceSpace: string;
  /** The space uploads live in: organization + project space + environment (§2.2, §5.4). */
  readonly uploadSpace: string;
}

/**
 * The callers of a configuration by API key, each with its spaces worked out once (every list request
 * asks for its voice space).
 *
 * @example
 * const callers = callersOf(config.keys);
 */
export function callersOf(keys: readonly KeyConfig[]): ReadonlyMap<string, Caller> {
  const callers = new Map<string, Caller>();
  for (const key of keys) {
    if (callers.has(key.key)) continue; // the first entry of a key wins, as a search would find it
    callers.set(key.key, {
      ...key,
      voiceSpace: `${key.organization}\u0000${key.environment}`,
      uploadSpace: `${key.organization}\u0000${key.project}\u0000${key.environment}`,
    });
  }
  return callers;
}

/**
 * Finds the caller of a request by its API key; undefined when the header is missing or unknown (§5.5).
 *
 * @example
 * const caller = findCaller(deps.callers, request.headers.get('X-API-Key'));
 */
export function findCaller(
  callers: ReadonlyMap<string, Caller>,
  presented: string | null,
): Caller | undefined {
  if (presented === null || presented === '') return undefined;
  return callers.get(presented);
}
