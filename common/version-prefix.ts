/**
 * A base URL that already ends in the API's version segment (`https://host/v1`). Every path of the
 * service starts with `/v1` (`/v1/voice/list`), and the suite and the proxy put a base URL's path before
 * it, so such a URL sends every request to `/v1/v1/...`: one clear line before anything runs, instead of
 * a run of 404s. Platform-free.
 */

/**
 * What is wrong with `href` when its path ends in `/v1` (or `/v1/`), with the URL to use instead;
 * undefined for any other URL (a gateway prefix such as `/voice` is fine).
 *
 * @example
 * versionPrefixProblem('http://127.0.0.1:4010/v1'); // 'ends in /v1, ... drop it: http://127.0.0.1:4010'
 */
export function versionPrefixProblem(href: string): string | undefined {
  const url = URL.parse(href);
  if (!url) return undefined;
  const path = url.pathname.replace(/\/+$/, '');
  if (!/\/v1$/i.test(path)) return undefined;
  return `ends in /v1, which every path of the service already starts with (/v1/voice/list would become /v1/v1/voice/list): drop it: ${url.origin}${path.slice(0, -3)}`;
}
