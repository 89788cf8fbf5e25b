// Kept in the declaration file, which names Node's types: a consumer's TypeScript then loads
// @types/node for it even where its "types" list leaves @types/node out (TypeScript 6's default).
/// <reference types="node" preserve="true" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiKeyHeader, mockWarningHeader } from '../../openapi/contract.js';
import type { MockConfig } from '../config/types.js';

/** Headers a browser app may send: X-API-Key (which forces a preflight), Content-Type and Prefer. */
export const corsAllowedHeaders = [apiKeyHeader, 'Content-Type', 'Prefer'] as const;
/** How long a browser may reuse a preflight answer, seconds (Chromium caps at 7200). */
export const corsMaxAgeSeconds = 7200;

/** The answer headers a browser app may read beyond the safelisted ones. */
export function corsExposedHeaders(config: MockConfig): string[] {
  const { sampleRate, channels, bitDepth } = config.pcmHeaders;
  return [sampleRate, channels, bitDepth, 'Allow', mockWarningHeader, 'Retry-After'];
}

/** A CORS preflight: OPTIONS from a browser asking whether a method may be used. */
export const isPreflight = (req: IncomingMessage): boolean =>
  req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;

/**
 * Answers a preflight with 204: any origin, the service's methods, the headers the app asked for on top
 * of X-API-Key, Content-Type and Prefer. No credentials are involved (the key is a header), so `*` holds.
 *
 * @example
 * if (cors && isPreflight(req)) return answerPreflight(req, res);
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  const requested = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const known = new Set(corsAllowedHeaders.map((name) => name.toLowerCase()));
  const extra = requested.filter((name) => !known.has(name.toLowerCase()));
  res.writeHead(204, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': [...corsAllowedHeaders, ...extra].join(', '),
    'Access-Control-Max-Age': String(corsMaxAgeSeconds),
    'Content-Length': '0',
  });
  res.end();
}

/**
 * The CORS headers every answer carries, as a flat [name, value, ...] list for `res.writeHead` (the
 * Node adapter puts the answer's own headers after them).
 *
 * @example
 * res.writeHead(200, [...corsHeaderList(service.config), 'Content-Length', '0']);
 */
export function corsHeaderList(config: MockConfig): string[] {
  return [
    'Access-Control-Allow-Origin',
    '*',
    'Access-Control-Expose-Headers',
    corsExposedHeaders(config).join(', '),
  ];
}
