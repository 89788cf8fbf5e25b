/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and stop at the proxy: the fixed list
 * (common/header-names.ts), plus every header the Connection header names. Everything else passes unchanged.
 */
import { hopByHopHeaders } from '../common/header-names.js';

/** The lowercase names the Connection header lists (`Connection: close, X-Foo` → close, x-foo). */
function namedByConnection(value: string | string[] | undefined): Set<string> {
  const all = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    all
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** Whether a (lowercase) header name stops at the proxy. */
export function isHopByHop(name: string, named: ReadonlySet<string>): boolean {
  return hopByHopHeaders.has(name) || name.startsWith('proxy-') || named.has(name);
}

/**
 * Node's raw header list (`[name, value, name, value…]`, case and order kept) without hop-by-hop ones.
 *
 * @example
 * endToEnd(['Content-Type', 'audio/wav', 'Connection', 'close']) // ['Content-Type', 'audio/wav']
 */
export function endToEnd(raw: readonly string[]): string[] {
  const connection: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if ((raw[i] ?? '').toLowerCase() === 'connection') connection.push(raw[i + 1] ?? '');
  const named = namedByConnection(connection);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (!isHopByHop(name.toLowerCase(), named)) out.push(name, raw[i + 1] ?? '');
  }
  return out;
}

/**
 * Request headers for the upstream: end-to-end ones only, Host set to the upstream's.
 *
 * @example
 * upstreamHeaders({ host: '127.0.0.1:4020', 'x-api-key': 'k', connection: 'close' }, 'api.example:443')
 * // { host: 'api.example:443', 'x-api-key': 'k' }
 */
export function upstreamHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  host: string,
): Record<string, string | string[]> {
  const named = namedByConnection(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'host' || isHopByHop(name, named)) continue;
    out[name] = value;
  }
  out.host = host;
  return out;
}
