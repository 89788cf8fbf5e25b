import { mockWarningHeader } from '../../../openapi/contract.js';
import { isFailure } from '../answer/envelope.js';
import { type Fault, parsePreferences } from '../request/scenario.js';
import { shortened } from './exchange.js';

/** The longest warning kept per entry: the mock's hints are a sentence. */
const warningMaxChars = 512;

const faultText = (fault: Fault): string =>
  fault.kind === 'reset'
    ? 'fault=reset'
    : fault.kind === 'cut-after-bytes'
      ? `fault=cut-after-bytes=${fault.bytes}`
      : `fault=slow-chunks=${fault.ms}`;

/**
 * The `Prefer` directives that made an answer (scenario.ts): `code=503` when the answer is the one it
 * asked for, `latency=MS`, `pace=realtime`, the faults. A person reading the journal must tell a forced
 * `503 · 20002` from an outage, and `latency=300` from a slow mock. None applies when the key was
 * refused first (the pipeline checks the key before any Prefer but `code=401`), nor when the header
 * itself was refused (the answer's message says why).
 *
 * @example
 * forcedBy('code=503, latency=300', 503); // ['code=503', 'latency=300']
 */
export function forcedBy(prefer: string | null, status: number): string[] {
  if (prefer === null || prefer === '') return [];
  const preferences = parsePreferences(prefer);
  if (isFailure(preferences)) return [];
  const { code, latencyMs, realtime, faults } = preferences;
  if (status === 401 && code !== 401) return [];
  const forced: string[] = [];
  // A success asked for runs the operation as usual: only an error status is an answer made to order.
  const codeMade = code !== undefined && code >= 300 && status === code;
  if (codeMade) forced.push(`code=${code}`);
  if (latencyMs !== undefined && latencyMs > 0) forced.push(`latency=${latencyMs}`);
  if (realtime) forced.push('pace=realtime');
  const reset = faults.some((f) => f.kind === 'reset');
  // A reset drops the connection before anything; a made code is answered whole, without body faults.
  if (reset && status === 0) forced.push('fault=reset');
  else if (!codeMade) forced.push(...faults.filter((f) => f.kind !== 'reset').map(faultText));
  return forced;
}

/** What the answer's X-Mock-Warning said (the mock's hints: an id that only matches once normalized). */
export function warningsOf(headers: Readonly<Record<string, string>>): string[] {
  const value = headers[mockWarningHeader];
  if (value === undefined || value === '') return [];
  return [shortened(value, warningMaxChars)];
}
