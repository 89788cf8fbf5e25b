/**
 * The answers the proxy gives itself, in the spec's envelope (§2.1): 502 when the upstream cannot be
 * reached or its answer cannot be passed on, 504 when it stayed silent past the upstream timeout, both
 * with error_code 10000 (the catalogue's "unexpected service error"); 400 with 10001 for a request
 * target that is no path; 403 with 10003 for a request of the mock's control API from a foreign Host or
 * Origin (control-guard.ts). Only ever sent before any byte of an upstream's answer reached the client.
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';

export type GatewayStatus = 400 | 403 | 502 | 504;

const errorCodes: Readonly<Record<GatewayStatus, number>> = {
  400: 10001,
  403: 10003,
  502: 10000,
  504: 10000,
};

/**
 * Answers `status` with the envelope, `error_message` being `voice-kit proxy: ${message}`.
 *
 * @example
 * gatewayAnswer(res, 502, 'the upstream cannot be reached (ECONNREFUSED)');
 */
export function gatewayAnswer(res: ServerResponse, status: GatewayStatus, message: string): void {
  const body = JSON.stringify({
    error_code: errorCodes[status],
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
