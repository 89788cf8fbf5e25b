/**
 * The proxy's profile of a deployment that chose differently: the suite's traffic through the proxy to
 * the variant staging (conformance/test/variant-staging.ts, served on loopback), and every point the
 * proxy wrote, with no hint, is the staging's choice, never the mock's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCases } from '../../conformance/cases/index.js';
import { type ProfiledRunResult, runConformance } from '../../conformance/index.js';
import { embeddedKeys } from '../../conformance/setup/embedded-mock.js';
import { kitFixtures } from '../../conformance/setup/fixture-source.js';
import { serveReference } from '../../conformance/setup/reference-server.js';
import { createVariantStaging, variantChoices } from '../../conformance/test/variant-staging.js';
import { includeNames } from '../../conformance/types.js';
import type { PointId } from '../../profile/points.js';
import { type ProxyClosed, startProxy } from '../index.js';

let staging: http.Server;
let closed: ProxyClosed;
let run: ProfiledRunResult;
let dir: string;

/** The staging's fetch behind a loopback HTTP server. */
async function serve(fetchFn: (req: Request) => Promise<Response>): Promise<string> {
  staging = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const url = `http://${req.headers.host}${req.url}`;
    const answer = await fetchFn(
      new Request(url, { method: req.method, headers, ...(body ? { body } : {}) }),
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) Readable.fromWeb(answer.body as never).pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => staging.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(staging.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const file = await kitFixtures('valid-10s');
  if (!file) throw new Error('the valid-10s fixture is missing');
  const reference = await serveReference(file);
  dir = await mkdtemp(join(tmpdir(), 'vk-proxy-variant-'));
  // Over HTTP every answer carries today's Date: the mock behind the staging runs on the wall clock.
  let shift = 0;
  const clock = {
    now: () => Date.now() + shift,
    advance: (ms: number) => {
      shift += ms;
    },
  };
  const upstream = await serve(createVariantStaging({ clock }).fetch);
  const proxy = await startProxy({ upstream, port: 0, writeProfile: join(dir, 'staging.json') });
  try {
    run = await runConformance({
      baseUrl: proxy.url,
      apiKey: embeddedKeys.main,
      keys: embeddedKeys,
      allowBillable: true,
      calibrate: true,
      include: includeNames,
      targetIsMock: false,
      referenceUrl: reference.url,
      // Every case but the one that streams 4,000 characters up to three times: the staging's default
      // is mp3, whose encoding makes it a quarter of the run, and its traffic settles no point (the
      // shorter streams settle the stream's default format; max-text-length needs a refusal next to it).
      cases: allCases.filter((c) => c.id !== 'synthesis.stream.progressive'),
    });
  } finally {
    closed = await proxy.close();
    await reference.close();
  }
  // A whole calibrating run through the proxy: minutes on a loaded 2-core machine beside another file.
}, 600_000);
afterAll(async () => {
  staging.closeAllConnections();
  await new Promise((resolve) => staging.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe("the proxy's profile of a staging that chose differently", () => {
  it('the suite passes through it', () => {
    expect(
      run.results
        .filter((r) => r.outcome === 'fail' || r.outcome === 'error')
        .map((r) => [r.id, r.findings.map((f) => f.message)]),
    ).toEqual([]);
  });

  it("holds the staging's choice on every varied point it wrote, and most of them", () => {
    const points = closed.profile?.points ?? {};
    const varied = Object.keys(variantChoices).filter((p) => points[p as PointId]);
    for (const p of varied)
      expect(points[p as PointId]?.choice, p).toEqual(variantChoices[p as keyof typeof variantChoices]);
    expect(varied.length).toBeGreaterThanOrEqual(17);
    expect(closed.profile?.unsettled ?? []).toEqual([]);
  });

  it('agrees with the suite on every point both wrote', () => {
    for (const [point, entry] of Object.entries(closed.profile?.points ?? {}))
      expect(entry?.choice, point).toEqual(run.profile.points[point as PointId]?.choice);
  });
});
