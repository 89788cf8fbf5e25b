/**
 * The answers the proxy gives itself, in the spec's envelope (§2.1): 502 when the upstream cannot be
 * reached or its answer cannot be passed on, 504 when it stayed silent past the upstream timeout, both
 * with error_code 10000 (the catalogue's "unexpected service error"); 400 with 10001 for a request
 * target that is no path. Only ever sent before any byte of an upstream's answer reached the client.
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';

export type GatewayStatus = 400 | 502 | 504;

/**
 * Answers `status` with the envelope, `error_message` being `voice-kit proxy: ${message}`.
 *
 * @example
 * gatewayAnswer(res, 502, 'the upstream cannot be reached (ECONNREFUSED)');
 */
export function gatewayAnswer(res: ServerResponse, status: GatewayStatus, message: string): void {
  const body = JSON.stringify({
    error_code: status === 400 ? 10001 : 10000,
    error_message: `voice-kit proxy: ${message}`,
    succeed: false,
    data: null,
  });
  // A writeHead that threw on the upstream's status line may have kept its headers and reason phrase:
  // both are replaced (the reason is given explicitly, else Node would reuse the refused one).
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(status, STATUS_CODES[status], {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
