/**
 * Who may reach a mock's control API (`/__mock/`), by the Host and Origin of a request: the rule the
 * mock's own guard applies (mocks/node/control-guard.ts) and the proxy applies in front of it, so a
 * page of another site or a DNS-rebinding name reaches neither. **Node only** (`node:net`).
 */
import { isIP } from 'node:net';

/** Whether an interface address is loopback only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The host name of a Host header value (`[::1]:4010` → `::1`, `Example.test:80` → `example.test`). */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return (bracketed[1] as string).toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

/**
 * Why a control request may not go on, or undefined when it may: its Host must name the server's own
 * address (the host it is bound to, localhost, or an IP literal: never another DNS name, as DNS
 * rebinding uses), and an Origin (a browser sends one on every cross-origin fetch and form post) must be
 * that very Host's.
 *
 * @example
 * controlAccessProblem('127.0.0.1', 'evil.example', null); // 'the control API answers only at …'
 */
export function controlAccessProblem(
  boundHost: string,
  host: string | null,
  origin: string | null,
): string | undefined {
  const bound = hostName(
    boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost,
  );
  const name = host === null ? bound : hostName(host);
  if (name !== 'localhost' && name !== bound && isIP(name) === 0)
    return `the control API answers only at the mock's own address, not through Host "${host}"`;
  if (origin !== null && (host === null || origin.toLowerCase() !== `http://${host.toLowerCase()}`))
    return `the control API answers only the mock's own pages, not a page of ${origin}`;
  return undefined;
}
