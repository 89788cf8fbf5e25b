/**
 * Header names HTTP itself gives a meaning, and what a name the user picks for data may not be. The
 * proxy drops the hop-by-hop ones on its way through; the PCM headers (a profile's `pcm-header-names`,
 * the config's `pcmHeaders`, `--pcm-headers` of the suite and the proxy) may be none of them: the mock
 * writes those headers on its PCM answers, and a `Content-Length` or `Transfer-Encoding` named there
 * desynchronises the connection. Platform-free.
 */

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1): they belong to one connection and stop at a proxy, together
 * with every `proxy-*` header and every header the Connection header names. Lowercase.
 */
export const hopByHopHeaders: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
]);

/** The `token` of RFC 9110 §5.6.2: what a header name may be made of. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Why each reserved name may not carry data, lowercase: framing and the representation
 * (RFC 9110 §8, RFC 9112 §6), cookies (RFC 6265), the origin and the date of a message, redirection,
 * caching, ranges, alternative services, authentication, the security headers a browser obeys (a
 * second `X-Content-Type-Options` undoes the kit's `nosniff`), and the headers the service and the kit
 * already use.
 */
const reserved: ReadonlyMap<string, string> = new Map([
  ...['content-length', 'transfer-encoding', 'content-type', 'content-encoding', 'content-range'].map(
    (n) => [n, 'frames the body or says what it is'] as const,
  ),
  ...['set-cookie', 'cookie'].map((n) => [n, 'carries cookies'] as const),
  ...['host', 'date', 'location', 'vary', 'cache-control', 'expires', 'etag', 'age', 'via', 'allow'].map(
    (n) => [n, 'has a meaning of its own in HTTP'] as const,
  ),
  ...['authorization', 'www-authenticate', 'origin', 'referer'].map(
    (n) => [n, 'has a meaning of its own in HTTP'] as const,
  ),
  ...['alt-svc', 'refresh', 'link', 'server', 'last-modified', 'accept-ranges', 'range', 'expect'].map(
    (n) => [n, 'has a meaning of its own in HTTP'] as const,
  ),
  ...[
    'x-content-type-options',
    'strict-transport-security',
    'x-frame-options',
    'referrer-policy',
    'permissions-policy',
    'x-xss-protection',
  ].map((n) => [n, 'is a security header browsers obey'] as const),
  ...['x-api-key', 'retry-after', 'prefer', 'x-mock-warning', 'x-mock-control-token'].map(
    (n) => [n, 'is already used by the service or the kit'] as const,
  ),
]);

/** Families reserved by their prefix, with why. */
const reservedPrefixes: readonly (readonly [string, string])[] = [
  ['content-', 'describes the body (a Content-* header)'],
  ['access-control-', 'is a CORS header'],
  ['proxy-', 'is a hop-by-hop header'],
  ['sec-', 'is set only by browsers (a Sec-* header)'],
  ['cross-origin-', 'is a security header browsers obey'],
];

/**
 * Why `name` cannot be the name of a header that carries data (a PCM header), or undefined when it can.
 *
 * @example
 * dataHeaderProblem('Content-Length'); // '"Content-Length" frames the body or says what it is; …'
 * dataHeaderProblem('X-Sample-Rate');  // undefined
 */
export function dataHeaderProblem(name: string): string | undefined {
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  if (!token.test(name)) return `${shown} is not a valid HTTP header name`;
  const lower = name.toLowerCase();
  const why =
    (hopByHopHeaders.has(lower) ? 'is a hop-by-hop header' : undefined) ??
    reserved.get(lower) ??
    reservedPrefixes.find(([prefix]) => lower.startsWith(prefix))?.[1];
  return why === undefined
    ? undefined
    : `${shown} ${why}; a PCM header needs a name of its own (like X-Sample-Rate)`;
}
