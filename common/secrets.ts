/**
 * What the kit never writes whole where people read: API keys, tokens, cookies, passwords. The mock's
 * journal (its list, its detail view, its HAR) and the proxy's HAR and reports show them through here:
 * a secret header or query parameter keeps at most 4 of its characters, enough to tell two configured
 * keys apart, never enough to use one. Platform-free.
 */

/** Header names that carry credentials, lowercase. */
const secretHeaderNames: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-api-token',
  'x-access-token',
  'x-mock-control-token',
  'x-csrf-token',
  'x-xsrf-token',
]);

/** A name that looks like it holds a credential: a key, token, secret, password, signature, session or cookie. */
const credentialWord =
  /(^|[-_.])(api[-_]?key|key|token|secret|passw(or)?d|pwd|signature|sig|session|cookie|auth|credentials?)([-_.]|$)|apikey|token|secret|passw(or)?d|credential/i;

/**
 * Whether a header's value is a secret: the credential headers and any name that looks like one
 * (`X-Api-Token`, `X-Client-Secret`, `X-Session-Id`).
 *
 * @example isSecretHeader('X-Auth-Token'); // true
 */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return secretHeaderNames.has(lower) || credentialWord.test(lower);
}

/**
 * Whether a query parameter's value is a secret (`api_key`, `apikey`, `key`, `token`, `access_token`,
 * `secret`, `password`, `signature`, `sig`…).
 *
 * @example isSecretParam('access_token'); // true
 */
export function isSecretParam(name: string): boolean {
  return credentialWord.test(name);
}

/**
 * A secret as it may be shown: at most 4 of its characters and never more than a quarter of it, around
 * an ellipsis (`mock-key-staging` → `mo…ng`, `mock-key` → `m…y`); a secret under 8 characters shows none.
 *
 * @example maskSecret('sk-live-0123456789abcdef'); // 'sk…ef'
 */
export function maskSecret(value: string): string {
  const ends = value.length >= 16 ? 2 : value.length >= 8 ? 1 : 0;
  return ends === 0 ? '…' : `${value.slice(0, ends)}…${value.slice(-ends)}`;
}

/** A header's value as it may be shown: masked when the header is a secret one. */
export const shownHeaderValue = (name: string, value: string): string =>
  isSecretHeader(name) ? maskSecret(value) : value;

/**
 * A URL (absolute, or a path with a query) with the values of its secret query parameters masked; the
 * rest of it, encoding included, unchanged.
 *
 * @example maskUrl('/v1/voice/list?api_key=mock-key-staging&page_size=5'); // '/v1/voice/list?api_key=mo%E2%80%A6ng&page_size=5'
 */
export function maskUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const hash = url.indexOf('#', mark);
  const query = url.slice(mark + 1, hash === -1 ? undefined : hash);
  const masked = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decoded(pair.slice(0, eq));
      return isSecretParam(name)
        ? `${pair.slice(0, eq + 1)}${encodeURIComponent(maskSecret(decoded(pair.slice(eq + 1))))}`
        : pair;
    })
    .join('&');
  return `${url.slice(0, mark + 1)}${masked}${hash === -1 ? '' : url.slice(hash)}`;
}

/** Query pairs (name, value) as a HAR lists them, secret values masked. */
export function maskedQueryPairs(pairs: Iterable<[string, string]>): { name: string; value: string }[] {
  return [...pairs].map(([name, value]) => ({
    name,
    value: isSecretParam(name) ? maskSecret(value) : value,
  }));
}

/** A query component decoded (`+` is a space), or as it is when it is not valid percent-encoding. */
function decoded(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return component;
  }
}
