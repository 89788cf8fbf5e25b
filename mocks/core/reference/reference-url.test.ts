import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../config/defaults.js';
import { isFailure } from '../answer/envelope.js';
import type { ServiceDeps } from '../context.js';
import { fetchReference, maxReferenceRedirects, notPublicMessage } from './reference-url.js';

const wav = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4]);

/**
 * A world with no network: `names` is the DNS, `pages` what each URL answers. Every fetch is recorded,
 * so a test sees whether the mock would have connected.
 */
function world(
  pages: Record<string, () => Response>,
  names: Record<string, string[]> = {},
  allowPrivateUrls = false,
) {
  const fetched: string[] = [];
  const resolved: string[] = [];
  const deps = {
    config: { ...defaultConfig, allowPrivateUrls },
    fetch: async (input: RequestInfo | URL) => {
      const url = String(input);
      fetched.push(url);
      const page = pages[url];
      if (!page) throw new TypeError(`fetch failed: ${url} is not in this test's world`);
      return page();
    },
    resolveHost: async (host: string) => {
      resolved.push(host);
      const addresses = names[host];
      if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      return addresses;
    },
  } as unknown as ServiceDeps;
  return { deps, fetched, resolved };
}

const redirect =
  (location: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location } });
const audio = () => new Response(wav, { headers: { 'Content-Type': 'audio/wav' } });
const refusal = (result: unknown) => (isFailure(result) ? [result.error, result.message] : result);

describe('ref_audio URLs: only public addresses are fetched (§4.2)', () => {
  it.each([
    'http://127.0.0.1:8080/a.wav',
    'http://127.0.0.53/a.wav',
    'http://[::1]:8080/a.wav',
    'http://[::ffff:127.0.0.1]/a.wav',
    'http://2130706433/a.wav',
    'http://0x7f.1/a.wav',
    'http://localhost:8080/a.wav',
    'http://LocalHost./a.wav',
    'http://api.localhost/a.wav',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/a.wav',
    'http://192.168.0.10:9000/a.wav',
    'http://[fd00::1]/a.wav',
    'http://[fe80::1]/a.wav',
    'http://0.0.0.0:8080/a.wav',
    'http://[::]/a.wav',
  ])('%s is refused with the one message, without connecting', async (url) => {
    const { deps, fetched } = world({ [url]: audio });
    expect(refusal(await fetchReference(deps, url))).toEqual(['refAudioNotAccessible', notPublicMessage]);
    expect(fetched).toEqual([]);
  });

  it('refuses a name that resolves to a non-public address, even when only one of them is', async () => {
    const url = 'http://fixtures.test/a.wav';
    for (const addresses of [['127.0.0.1'], ['93.184.216.34', '10.0.0.7'], ['2606:4700::1', 'fe80::2']]) {
      const { deps, fetched, resolved } = world({ [url]: audio }, { 'fixtures.test': addresses });
      expect(refusal(await fetchReference(deps, url))).toEqual(['refAudioNotAccessible', notPublicMessage]);
      expect([resolved, fetched]).toEqual([['fixtures.test'], []]);
    }
  });

  it('fetches a name whose every address is public', async () => {
    const url = 'https://cdn.test/voices/me.wav';
    const { deps, fetched } = world({ [url]: audio }, { 'cdn.test': ['93.184.216.34', '2606:4700::1'] });
    const result = await fetchReference(deps, url);
    expect(result).toEqual({ bytes: wav, fileName: 'me.wav' });
    expect(fetched).toEqual([url]);
  });

  it('checks every redirect before following it: a public URL that redirects inside is refused', async () => {
    const names = { 'public.test': ['93.184.216.34'], 'inside.test': ['192.168.1.20'] };
    for (const location of [
      'http://127.0.0.1:9/secret',
      'http://[::1]/x',
      'http://inside.test/x',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const { deps, fetched } = world({ 'http://public.test/a.wav': redirect(location) }, names);
      expect(refusal(await fetchReference(deps, 'http://public.test/a.wav'))).toEqual([
        'refAudioNotAccessible',
        notPublicMessage,
      ]);
      expect(fetched).toEqual(['http://public.test/a.wav']);
    }
  });

  it('follows redirects between public hosts, relative ones too, and every redirect status', async () => {
    const names = { 'a.test': ['93.184.216.34'], 'b.test': ['93.184.216.35'] };
    const pages = {
      'http://a.test/start': redirect('https://b.test/next', 301),
      'https://b.test/next': redirect('/final.wav', 307),
      'https://b.test/final.wav': redirect('../final2.wav', 308),
      'https://b.test/final2.wav': redirect('http://a.test/end.wav', 303),
      'http://a.test/end.wav': audio,
    };
    const { deps, fetched } = world(pages, names);
    expect(await fetchReference(deps, 'http://a.test/start')).toEqual({ bytes: wav, fileName: 'start' });
    expect(fetched).toEqual(Object.keys(pages));
  });

  it(`stops after ${maxReferenceRedirects} redirects, and at a redirect to another scheme`, async () => {
    const names = { 'loop.test': ['93.184.216.34'] };
    const { deps, fetched } = world({ 'http://loop.test/a': redirect('http://loop.test/a') }, names);
    expect(refusal(await fetchReference(deps, 'http://loop.test/a'))).toEqual([
      'refAudioNotAccessible',
      `ref_audio URL cannot be fetched: it redirects more than ${maxReferenceRedirects} times`,
    ]);
    expect(fetched).toHaveLength(maxReferenceRedirects + 1);

    const file = world({ 'http://loop.test/b': redirect('file:///etc/passwd') }, names);
    expect(refusal(await fetchReference(file.deps, 'http://loop.test/b'))).toEqual([
      'refAudioNotAccessible',
      'ref_audio URL cannot be fetched: it leads to a file: URL; only http and https are fetched',
    ]);
  });

  it('says when a name does not resolve, without fetching', async () => {
    const { deps, fetched } = world({});
    expect(refusal(await fetchReference(deps, 'http://nowhere.test/a.wav'))).toEqual([
      'refAudioNotAccessible',
      'ref_audio URL cannot be fetched: the host nowhere.test cannot be resolved',
    ]);
    expect(fetched).toEqual([]);
  });

  it('with allowPrivateUrls fetches loopback and lets fetch follow redirects itself', async () => {
    const url = 'http://127.0.0.1:8080/a.wav';
    const { deps, fetched, resolved } = world({ [url]: audio }, {}, true);
    expect(await fetchReference(deps, url)).toEqual({ bytes: wav, fileName: 'a.wav' });
    expect([fetched, resolved]).toEqual([[url], []]);
  });

  it('refuses a redirect whose target a browser hides (an opaque redirect)', async () => {
    const opaque = () => {
      const response = new Response(null, { status: 200 });
      Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
      return response;
    };
    const { deps } = world({ 'http://a.test/x': opaque }, { 'a.test': ['93.184.216.34'] });
    expect(refusal(await fetchReference(deps, 'http://a.test/x'))).toEqual([
      'refAudioNotAccessible',
      'ref_audio URL cannot be fetched: it redirects, and this runtime hides where to',
    ]);
  });
});
