/**
 * The proxy watching an app-like flow (traffic only) in front of deviant deployments: how many of the
 * deviations it reports, and that the clean mock and the variations the spec allows give no violation.
 * Each deviation must be reported by the rule expected of it (must or should), naming its evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitFixtures } from '../../conformance/setup/fixture-source.js';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { startProxy } from '../index.js';
import type { ProxyReport } from '../types.js';
import {
  type Deviant,
  deviants,
  deviantUpstream,
  flow,
  main,
  otherProject,
  variations,
} from './deviants-flow.js';

/** The proxy is told where the keys belong (`keys`), so the object-key rule compares scopes. */
const keys = {
  [main]: { organization: 'org-1', project: 'project-1', environment: 'production' },
  [otherProject]: { organization: 'org-1', project: 'project-2', environment: 'production' },
};

let mock: MockServer;
let valid: Uint8Array<ArrayBuffer>;
let short: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  valid = new Uint8Array((await kitFixtures('valid-10s'))?.bytes ?? []);
  short = new Uint8Array((await kitFixtures('short-2.9s'))?.bytes ?? []);
});
afterAll(async () => {
  await mock?.close();
});

async function watch(deviant: Deviant | undefined): Promise<ProxyReport> {
  await fetch(`${mock.url}/__mock/reset`, { method: 'POST' });
  const up = await deviantUpstream(mock.url, deviant);
  const proxy = await startProxy({ upstream: up.url, port: 0, keys });
  try {
    await flow(proxy.url, { valid, short });
    await new Promise((r) => setTimeout(r, 30));
    return proxy.report();
  } finally {
    await proxy.close();
    await up.close();
  }
}

const said = (r: ProxyReport) => r.violations.map((v) => `${v.severity} ${v.rule} @${v.exchange}: ${v.seen}`);

/** The rule each deviation is expected to be reported by. */
const expected: Record<string, string> = {
  'billing: a creation leaves remainingFreeCloneCount unchanged': 'session.free-uses',
  'billing: an upload uses a free clone': 'session.upload-free',
  'billing: a refused creation uses a free clone': 'session.free-uses',
  'stale list cache: a deleted voice is still listed': 'session.deleted-gone',
  'stale list cache: a new voice is missing from the list': 'session.saved-listed',
  'eventual consistency: a saved voice is refused by synthesis right after the save':
    'session.saved-selectable',
  'eventual consistency: a deleted voice still synthesizes': 'session.deleted-gone',
  'loose input: accepts a voice_id with characters outside a-z 0-9 _ -': 'request.voice-id',
  'loose input: accepts an unknown scene': 'request.upload-form',
  'loose input: accepts a .flac file': 'request.file-extension',
  'loose input: accepts a negative speed': 'request.speed',
  'strict input: 10001 for a valid voice_id with spaces and capitals': 'request.voice-id',
  'strict input: 20012 for an .ogg file': 'request.file-extension',
  'strict input: 10001 for speed 0': 'request.speed',
  "object keys: another project's object key is accepted": 'session.object-key-scope',
  'framing: WAV header sizes that lie': 'audio.body',
  'framing: PCM without its bit-depth header': 'audio.pcm-headers',
  'framing: an MP3 whose last frame is cut': 'audio.body',
};

describe('the proxy watching an app-like flow', { timeout: 60_000 }, () => {
  it('the clean mock gives no violation', async () => {
    const report = await watch(undefined);
    expect(report.counts.exchanges).toBeGreaterThan(30);
    expect(said(report)).toEqual([]);
  });

  it.each(variations)('allowed: $name gives no violation', async (v) => {
    expect(said(await watch(v))).toEqual([]);
  });

  it.each(deviants)('reports: $name', async (d) => {
    const report = await watch(d);
    const rule = expected[d.name];
    const hit = report.violations.find((v) => v.rule === rule);
    expect(hit, said(report).join('\n')).toBeDefined();
    if (hit?.rule.startsWith('session.')) expect(hit.evidence?.exchange).toBeLessThan(hit.exchange);
  });
});
