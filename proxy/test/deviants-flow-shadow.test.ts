/**
 * The app-like flow of deviants-flow.ts through the proxy with --shadow: the clean mock and every
 * allowed variation stay quiet, and each deviant is reported (by its honest rule or the oracle's),
 * once: the session rules the oracle subsumes are not said beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitFixtures } from '../../conformance/setup/fixture-source.js';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { startProxy } from '../index.js';
import { subsumedByShadow } from '../shadow.js';
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
afterAll(() => mock?.close());

async function watch(deviant: Deviant | undefined, shadow: boolean): Promise<ProxyReport> {
  await fetch(`${mock.url}/__mock/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());
  const up = await deviantUpstream(mock.url, deviant);
  const proxy = await startProxy({ upstream: up.url, port: 0, keys, shadow });
  try {
    await flow(proxy.url, { valid, short });
  } finally {
    await up.close();
  }
  return (await proxy.close()).report;
}

const said = (r: ProxyReport) => r.violations.map((v) => `${v.severity} ${v.rule} @${v.exchange}: ${v.seen}`);

describe('the app-like flow through the proxy with --shadow', { timeout: 60_000 }, () => {
  it('the clean mock gives no violation', async () => {
    expect(said(await watch(undefined, true))).toEqual([]);
  });

  it.each(variations)('allowed: $name gives no violation', async (v) => {
    expect(said(await watch(v, true))).toEqual([]);
  });

  it.each(deviants)('reports: $name', async (d) => {
    const shadowed = await watch(d, true);
    // Once: a session rule the oracle says too is not a second finding.
    expect(shadowed.violations.filter((v) => subsumedByShadow.has(v.rule))).toEqual([]);
    expect(shadowed.violations.length, said(shadowed).join('\n')).toBeGreaterThan(0);
  });
});
