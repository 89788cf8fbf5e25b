/**
 * The mock's control API (`/__mock/`) behind the proxy: the proxy rewrites Host to the upstream's, so
 * the mock's own Host/Origin guard would see a request of its own address. The proxy applies the same
 * rule first (common/control-access.ts), with its own address as the one a control request must name:
 * a page of another site or a DNS-rebinding name reaches the mock's journal through the proxy no more
 * than it does directly. A loopback client that names the proxy's address passes as before.
 */
import type { IncomingMessage } from 'node:http';
import { controlAccessProblem } from '../common/control-access.js';

/** The control API's paths, as the mock routes them; the signed voice audio under it stays open. */
const controlPath = /^\/__mock(\/|$)/i;
const voiceAudioPath = /^\/__mock\/voice-audio\//i;

/** The path a target names, as a server that parses it would route it: decoded, `.` and `..` resolved, `//` as `/`. */
function routedPath(target: string): string {
  const absolute = !target.startsWith('/');
  const url = URL.parse(absolute ? target : `http://proxy.invalid${target}`);
  let path = url?.pathname ?? target;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not valid percent-encoding: judged as it is.
  }
  const collapsed = path.replace(/\/{2,}/g, '/');
  return URL.parse(`http://proxy.invalid${collapsed}`)?.pathname ?? collapsed;
}

/** The first value of a header in Node's raw list, or null. */
function rawHeader(raw: readonly string[], name: string): string | null {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.toLowerCase() === name) return raw[i + 1] ?? '';
  return null;
}

/**
 * Undefined when `req` is no control request; else `{ problem }`: why the proxy refuses it (403, as the
 * mock would), or no problem when it may go on. `boundHost` is the address the proxy listens on.
 *
 * @example
 * controlRequestCheck('127.0.0.1', req); // { problem: 'the control API answers only at the mock's own address, not through Host "evil.example"' }
 */
export function controlRequestCheck(
  boundHost: string,
  req: IncomingMessage,
): { readonly problem: string | undefined } | undefined {
  const target = req.url ?? '/';
  const path = routedPath(target);
  if (!controlPath.test(path) || voiceAudioPath.test(path)) return undefined;
  // An absolute-form target names the host itself (RFC 9112 §3.2.2): it is the one judged.
  const absolute = target.startsWith('/') ? undefined : URL.parse(target);
  const host = absolute ? absolute.host : rawHeader(req.rawHeaders, 'host');
  return { problem: controlAccessProblem(boundHost, host, rawHeader(req.rawHeaders, 'origin')) };
}
