import { limits } from '../../../openapi/contract.js';
import { type Failure, fail, isFailure } from '../answer/envelope.js';
import type { ServiceDeps } from '../context.js';
import { concat } from '../platform/storage.js';
import { readAtMost } from '../request/request-body.js';
import { isAddressLiteral, isLoopbackName, isPublicAddress } from './public-address.js';

/** Redirects a ref_audio URL may take; each hop is checked like the first address. */
export const maxReferenceRedirects = 5;

/**
 * The one answer to every address that is not public, whatever its kind and port: a caller learns
 * nothing about what listens inside (different messages would map internal ports).
 */
export const notPublicMessage =
  'ref_audio URL cannot be fetched: it must be publicly reachable, and its host is a loopback, private, ' +
  'link-local, unique-local or otherwise non-public address (the mock allows those only when started ' +
  'with --allow-private-urls)';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

const notAccessible = (why: string) =>
  fail('refAudioNotAccessible', `ref_audio URL cannot be fetched: ${why}`);

/** Rejects when the signal aborts, so a slow DNS answer is bounded by the same timeout as the fetch. */
function bounded<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    promise.then(resolve, reject);
  });
}

/**
 * Why the mock will not connect to this URL (§4.2 asks for a publicly reachable URL), or undefined.
 * IP literals and localhost names are judged at once; another name is resolved through
 * `deps.resolveHost` (the Node server's DNS lookup) and refused when any of its addresses is not
 * public. Without a resolver (a browser, an in-process service without one) a name is let through:
 * the runtime's own fetch then decides where it goes.
 */
async function refusal(deps: ServiceDeps, url: URL, signal: AbortSignal): Promise<Failure | undefined> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return notAccessible(`it leads to a ${url.protocol} URL; only http and https are fetched`);
  }
  const host = url.hostname;
  if (isAddressLiteral(host))
    return isPublicAddress(host) ? undefined : fail('refAudioNotAccessible', notPublicMessage);
  if (isLoopbackName(host)) return fail('refAudioNotAccessible', notPublicMessage);
  if (!deps.resolveHost) return undefined;
  let addresses: readonly string[];
  try {
    addresses = await bounded(deps.resolveHost(host), signal);
  } catch {
    if (signal.aborted) throw signal.reason;
    return notAccessible(`the host ${host} cannot be resolved`);
  }
  if (addresses.length === 0) return notAccessible(`the host ${host} cannot be resolved`);
  return addresses.every(isPublicAddress) ? undefined : fail('refAudioNotAccessible', notPublicMessage);
}

/**
 * The answer of a ref_audio URL, each hop of its redirects checked before the mock connects to it.
 * With `allowPrivateUrls` nothing is checked and fetch follows redirects itself.
 */
async function fetchPublic(deps: ServiceDeps, url: string, signal: AbortSignal): Promise<Response | Failure> {
  if (deps.config.allowPrivateUrls) return deps.fetch(url, { signal, redirect: 'follow' });
  let current = new URL(url);
  for (let hop = 0; hop <= maxReferenceRedirects; hop++) {
    const refused = await refusal(deps, current, signal);
    if (refused) return refused;
    const response = await deps.fetch(current.href, { signal, redirect: 'manual' });
    // A browser hides where a redirect leads, so its next hop cannot be checked.
    if (response.type === 'opaqueredirect')
      return notAccessible('it redirects, and this runtime hides where to');
    const location = response.headers.get('location');
    if (!redirectStatuses.has(response.status) || location === null) return response;
    await response.body?.cancel();
    try {
      current = new URL(location, current);
    } catch {
      return notAccessible(`it redirects to an invalid location ${JSON.stringify(location)}`);
    }
  }
  return notAccessible(`it redirects more than ${maxReferenceRedirects} times`);
}

/**
 * Fetches a ref_audio URL (§4.2) with a timeout and the 20 MiB cap; a URL whose body passes 20 MiB is
 * refAudioTooLarge, like an upload, and anything unreachable (or not public) refAudioNotAccessible.
 *
 * @example
 * const audio = await fetchReference(deps, 'https://example.com/me.wav');
 */
export async function fetchReference(
  deps: ServiceDeps,
  url: string,
): Promise<{ bytes: Uint8Array; fileName: string } | Failure> {
  const max = limits.referenceMaxBytes.value;
  const timeoutMs = deps.config.reference.fetchTimeoutMs;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await fetchPublic(deps, url, abort.signal);
    if (isFailure(response)) return response;
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return notAccessible(`it answered HTTP ${response.status}`);
    }
    const reader = response.body.getReader();
    const read = await readAtMost(reader, max);
    if (!read) {
      await reader.cancel();
      // The size rule of §4.2 holds whatever the source: a URL over 20 MiB is 20010, like an upload.
      return fail(
        'refAudioTooLarge',
        `reference audio at ref_audio URL is larger than ${max} bytes (20 MiB)`,
      );
    }
    const bytes = concat(read.parts);
    const fileName = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return { bytes, fileName };
  } catch (error) {
    return notAccessible(
      abort.signal.aborted ? String(abort.signal.reason?.message) : (error as Error).message,
    );
  } finally {
    clearTimeout(timer);
  }
}
