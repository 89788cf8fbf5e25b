/**
 * The suite and the explorer against a hostile deployment on loopback: one that stops answering, one
 * whose answers never end, one whose list claims run-prefixed voices without end. Neither outlives its
 * limits (--max-time and a short grace, the per-request timeout, Ctrl-C), reads an answer past its
 * limit, or sends more deletes than the voices it made and a small margin.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { exploreDeployment } from '../explore/index.js';
import { runConformance } from '../index.js';
import { listPage } from '../toolkit/actions.js';
import type { ConformanceCase } from '../toolkit/context.js';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

// Closed after the file: the tests that wait out a deployment's silence run at once.
const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A loopback deployment answering with `handler` (n counts the requests from 1). */
async function deployment(handler: Handler) {
  let n = 0;
  const deletes: string[] = [];
  const server = createServer((req, res) => {
    n += 1;
    if (req.method === 'DELETE') deletes.push(req.url ?? '');
    req.resume();
    handler(req, res, n);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  servers.push({ close });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, deletes, requests: () => n };
}

const envelope = (data: unknown) => JSON.stringify({ error_code: 0, error_message: '', succeed: true, data });
const emptyList = envelope({ list: [], has_more: false, total: 0, remainingFreeCloneCount: 3 });
const answer = (res: ServerResponse, body = emptyList) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body);
};

/**
 * Answers the first `n` requests with an empty list, then never answers again; `finish` is called
 * 0.2 s into the first request left unanswered (a Ctrl-C while the run waits on it).
 */
const stopsAfter =
  (n: number, finish?: () => void): Handler =>
  (_req, res, i) => {
    if (i <= n) return answer(res);
    if (i === n + 1 && finish) setTimeout(finish, 200);
  };

/** An answer that never ends (up to `cap` bytes), counting what was written before the client left. */
function endless(served: number[], cap = 200 * 2 ** 20): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const at = served.push(0) - 1;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    chunk.write('{"error_code":0,"error_message":"","succeed":true,"data":{"list":[');
    const pump = () => {
      while ((served[at] ?? 0) < cap) {
        served[at] = (served[at] ?? 0) + chunk.byteLength;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  };
}

const oneList: ConformanceCase = {
  id: 'hostile.list',
  section: '§4.3',
  severity: 'must',
  title: 'a list',
  run: async (ctx) => {
    await listPage(ctx);
  },
};

// Each waits on its own deployment's silence (and asserts bounds well above it): run together.
describe('a deployment that stops answering', { concurrent: true }, () => {
  it('--explore --max-time 3 ends within the time, its cleanup included', async () => {
    const d = await deployment(stopsAfter(4));
    const t0 = performance.now();
    const r = await exploreDeployment({ baseUrl: d.url, apiKey: 'k', seed: 1, maxTimeSeconds: 3 });
    const seconds = (performance.now() - t0) / 1000;
    // The cleanup's part is inside --max-time; the slack is for closing the run on a loaded machine.
    expect(seconds).toBeLessThan(3 + 1.5);
    expect(r.durationMs).toBeLessThan(4_500);
  }, 30_000);

  it('the exploration asked to finish (the signal) ends at once, with what it judged', async () => {
    const controller = new AbortController();
    let asked = 0;
    const d = await deployment(
      stopsAfter(4, () => {
        asked = performance.now();
        controller.abort();
      }),
    );
    const r = await exploreDeployment({
      baseUrl: d.url,
      apiKey: 'k',
      seed: 1,
      maxTimeSeconds: 120,
      signal: controller.signal,
    });
    expect((performance.now() - asked) / 1000).toBeLessThan(5 + 2);
    expect(r.trace.some((t) => t.includes('[skipped: no-answer]'))).toBe(true);
  }, 30_000);

  it('the suite gives each request --request-timeout, and the case that waited says so', async () => {
    const d = await deployment(stopsAfter(3));
    const t0 = performance.now();
    const r = await runConformance({
      baseUrl: d.url,
      apiKey: 'k',
      cases: [oneList],
      requestTimeoutSeconds: 1,
    });
    expect((performance.now() - t0) / 1000).toBeLessThan(8);
    expect(r.results[0]?.error).toMatch(/no complete answer within 1 s \(request timeout\)/);
  }, 30_000);

  it('the suite asked to finish cancels the request in flight and ends within a short grace', async () => {
    const controller = new AbortController();
    let asked = 0;
    const d = await deployment(
      stopsAfter(3, () => {
        asked = performance.now();
        controller.abort();
      }),
    );
    const r = await runConformance({
      baseUrl: d.url,
      apiKey: 'k',
      cases: [oneList],
      signal: controller.signal,
    });
    expect(r.aborted).toBe(true);
    expect((performance.now() - asked) / 1000).toBeLessThan(5 + 2);
  }, 40_000);
});

describe('answers that never end', () => {
  it('the explorer reads a list answer up to its limit only, and that is a finding', async () => {
    const served: number[] = [];
    const d = await deployment(endless(served));
    const r = await exploreDeployment({ baseUrl: d.url, apiKey: 'k', seed: 1, maxTimeSeconds: 4 });
    expect(r.found?.verdicts.map((v) => v.rule)).toContain('explore.answer-size');
    expect(Math.max(...served)).toBeLessThan(32 * 2 ** 20);
  }, 30_000);

  it('the suite reads a list answer up to its limit only, and that is a finding', async () => {
    const served: number[] = [];
    const d = await deployment(endless(served));
    const r = await runConformance({ baseUrl: d.url, apiKey: 'k', cases: [oneList] });
    expect(r.results[0]?.findings.map((f) => f.message).join('\n')).toMatch(/went past 4194304 bytes/);
    expect(Math.max(...served)).toBeLessThan(32 * 2 ** 20);
  }, 30_000);
});

describe('a list that claims run-prefixed voices without end', () => {
  const prefix = 'vk_abcdef_';
  const forever: Handler = (req, res, n) => {
    if (req.method === 'DELETE') return answer(res, envelope(null));
    const list = Array.from({ length: 20 }, (_, i) => ({ voice_id: `${prefix}v${n}_${i}` }));
    answer(
      res,
      envelope({ list, has_more: true, next_voice_id: `${prefix}v${n}_19`, remainingFreeCloneCount: 3 }),
    );
  };

  it('the suite’s cleanup sends at most the voices it made and a margin, and reports what was left', async () => {
    const d = await deployment(forever);
    const r = await runConformance({ baseUrl: d.url, apiKey: 'k', cases: [oneList], runPrefix: prefix });
    expect(d.deletes.length).toBeLessThanOrEqual(10);
    expect(r.billing.voicesRemaining).toBeGreaterThan(0);
    expect(r.billing.cleanupFailures.join('\n')).toMatch(/voice\(s\) under the run prefix left: vk_abcdef_/);
  }, 60_000);

  it('the explorer’s sweep sends at most the voices it made and a margin, and reports what was left', async () => {
    const d = await deployment(forever);
    const t0 = performance.now();
    const r = await exploreDeployment({
      baseUrl: d.url,
      apiKey: 'k',
      seed: 1,
      maxTimeSeconds: 3,
      runPrefix: prefix,
    });
    expect((performance.now() - t0) / 1000).toBeLessThan(3 + 5 + 2);
    expect(d.deletes.length).toBeLessThanOrEqual(10 + (r.operations.deleteVoice ?? 0));
    expect(r.cleanup.left).toBeGreaterThan(0);
    expect(r.cleanup.failures.join('\n')).toMatch(/not deleted: vk_abcdef_/);
  }, 30_000);
});
