/**
 * The explorer's link to the differential oracle (oracle/): one oracle per exploration (reset before
 * each sequence, its coverage kept), and each step's exchange as the oracle reads it: the request as
 * sent (an upload with the fixture's bytes), the answer as read, the time it came.
 */
import type { ExchangeFacts, KeyScope } from '../../judge/index.js';
import { createOracle, type Oracle, type OracleExchange } from '../../oracle/index.js';
import { kitFixtures } from '../setup/fixture-source.js';
import type { SentRequest } from './facts.js';
import type { Step } from './step.js';
import type { Wire } from './wire.js';

/**
 * An oracle with the run's keys where the judge places them (the key without Voice Cloning marked).
 *
 * @example
 * const oracle = await exploreOracle(wire, keyScopes(wire)); await oracle.reset(); // before each sequence
 */
export function exploreOracle(
  wire: Pick<Wire, 'keys'>,
  scopes: Readonly<Record<string, KeyScope>>,
  profile?: unknown,
): Promise<Oracle> {
  const keys = Object.fromEntries(
    Object.entries(scopes).map(([key, scope]) => [
      key,
      { ...scope, voiceCloning: key !== wire.keys.noClone },
    ]),
  );
  return createOracle({ keys, ...(profile !== undefined ? { profile } : {}) });
}

/** The oracle's view of one step's exchange. */
export async function oracleExchange(
  step: Step,
  sent: SentRequest,
  facts: ExchangeFacts,
  json: unknown,
): Promise<OracleExchange> {
  const query = new URLSearchParams(sent.query).toString();
  const path = sent.path.includes('?') || !query ? sent.path : `${sent.path}?${query}`;
  const upload = step.upload;
  const fixture = upload && !upload.empty ? await kitFixtures(upload.role) : undefined;
  return {
    seq: facts.seq,
    at: Date.now(),
    request: {
      method: sent.method,
      path,
      headers: sent.headers,
      ...(sent.json !== undefined ? { json: sent.json } : {}),
      ...(sent.form
        ? {
            form: {
              scene: sent.form.scene,
              fileName: sent.form.fileName,
              bytes: fixture?.bytes ?? new Uint8Array(0),
            },
          }
        : {}),
    },
    answer: {
      status: facts.status,
      ...(json !== undefined ? { json } : {}),
      ...(facts.audio
        ? { audio: { kind: facts.audio.kind, seconds: facts.audio.seconds, bytes: facts.audio.bytes } }
        : {}),
    },
  };
}
