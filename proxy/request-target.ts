/**
 * What the proxy sends the upstream as the request target: always a path (origin-form, RFC 9112
 * §3.2.1). A client may send the absolute form (`GET http://other.host/x HTTP/1.1`); passed on as it
 * came, an upstream that routes by the target's authority (as RFC 9112 §3.2.2 tells it to) would serve
 * another virtual host than the one `--upstream` names. Only its path and query go on.
 */

/**
 * The origin-form of `target`: itself when it is a path already, the path and query of an absolute
 * http(s) URL, or undefined for anything else (an authority, `*`, a URL that does not parse).
 *
 * @example
 * originForm('http://other.host/v1/voice/list?page_size=2'); // '/v1/voice/list?page_size=2'
 */
export function originForm(target: string): string | undefined {
  if (target.startsWith('/')) return target;
  const url = URL.parse(target);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  return url.pathname + url.search;
}
