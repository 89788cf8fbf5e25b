/**
 * `--shadow`: the suite's traffic through the proxy to the kit's mock gives no difference from the
 * oracle's model (no false alarm), and the oracle's scenario through the proxy to a deployment behind
 * a deviation only a sequence shows (a refused save that costs a free use) is reported, the model's
 * answer beside the deployment's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/index.js';
import { sequenceDeviations } from '../../conformance/test/explore-deviations.js';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { startProxy } from '../index.js';

let mock: MockServer;
const keys = {
  'mock-key': { organization: 'org-1', project: 'project-1', environment: 'production' },
  'mock-key-no-clone': { organization: 'org-1', project: 'project-1', environment: 'production' },
  'mock-key-other-project': { organization: 'org-1', project: 'project-2', environment: 'production' },
  'mock-key-other-env': { organization: 'org-1', project: 'project-1', environment: 'staging' },
  'mock-key-other-org': { organization: 'org-2', project: 'project-3', environment: 'production' },
};
const extraKeys = {
  noClone: 'mock-key-no-clone',
  otherProject: 'mock-key-other-project',
  otherEnv: 'mock-key-other-env',
  otherOrg: 'mock-key-other-org',
};

/** An upstream that answers through `handle` in front of the mock. */
async function deviant(handle: (req: Request, next: (r: Request) => Promise<Response>) => Promise<Response>) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const body = chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined;
    const answer = await handle(
      new Request(`${mock.url}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) }),
      (r) => fetch(r),
    );
    const out = Buffer.from(await answer.arrayBuffer());
    const h: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding') h[k] = v;
    });
    res.writeHead(answer.status, { ...h, 'content-length': String(out.byteLength) });
    res.end(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

const reset = () => fetch(`${mock.url}/__mock/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());
const only = ['voice-save.*', 'list.*', 'delete.*', 'upload.accepts.*'];

describe('proxy --shadow', () => {
  it('finds no difference in the suite’s traffic to the kit’s mock', async () => {
    await reset();
    const proxy = await startProxy({ upstream: mock.url, port: 0, keys, shadow: true });
    const run = await runConformance({
      baseUrl: proxy.url,
      apiKey: 'mock-key',
      allowBillable: true,
      keys: extraKeys,
      only,
    });
    const { report } = await proxy.close();
    expect(run.counts.pass).toBeGreaterThan(10);
    expect(report.violations.filter((v) => v.rule.startsWith('oracle.'))).toEqual([]);
    expect(report.exchanges.some((e) => e.notes.some((n) => n.includes('shadow')))).toBe(false);
  }, 120_000);

  it('reports what only a sequence shows, both answers side by side', async () => {
    await reset();
    const d = sequenceDeviations.find((s) => s.name.includes('free count'));
    if (!d) throw new Error('the free-count deviation is missing');
    const upstream = await deviant(d.make());
    const proxy = await startProxy({ upstream: upstream.url, port: 0, keys, shadow: true });
    await runConformance({
      baseUrl: proxy.url,
      apiKey: 'mock-key',
      allowBillable: true,
      keys: extraKeys,
      only,
    });
    const { report } = await proxy.close();
    await upstream.close();
    const found = report.violations.filter((v) => v.rule.startsWith('oracle.'));
    expect(found.map((v) => v.rule)).toContain('oracle.free-uses');
    expect(found[0]?.seen).toMatch(/deployment:.*model:/);
  }, 120_000);
});
