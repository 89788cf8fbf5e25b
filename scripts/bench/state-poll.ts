import { ControlClient } from '../../mocks/dashboard/control-client.js';
import { statePoll } from '../../mocks/dashboard/state-poll.js';
import { apiKey } from './http-bench.js';
import { type LoadResult, load } from './load.js';
import { cliBin, freePort, spawnServer } from './servers.js';

const auth = { 'x-api-key': apiKey };

/** How the page reads the state every second: all of GET /__mock/state (before), or as the dashboard does now. */
export type PollMode = 'none' | 'full' | 'dashboard';

export interface StatePollRow {
  readonly mode: PollMode;
  readonly list: LoadResult;
  /** Each poll's time, as the poller saw it (ms). */
  readonly pollMs: readonly number[];
  /** Bytes of the last full poll's answer (the JSON a page downloads each second). */
  readonly pollBytes: number;
}

/** Polls like the dashboard, once a second, until `stop()`: each poll's duration in ms. */
function poller(url: string, mode: PollMode) {
  const times: number[] = [];
  let bytes = 0;
  let running = mode !== 'none';
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(`${url}${String(input)}`, init);
    const body = await response.arrayBuffer();
    bytes += body.byteLength;
    return new Response(body, { status: response.status, headers: response.headers });
  }) as typeof fetch;
  const read = statePoll(new ControlClient({ getItem: () => null, setItem() {}, removeItem() {} }, fetcher));
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      bytes = 0;
      if (mode === 'full') await fetcher('/__mock/state');
      else await read();
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return {
    times,
    bytes: () => bytes,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/**
 * GET /v1/voice/list (page of 20, 50 connections) on a mock holding `voices` populated voices, while
 * a page polls the state once a second: not at all, all of GET /__mock/state (the dashboard before
 * this version), or as the dashboard does now. `bin` is the CLI to measure (another build for a
 * before/after comparison).
 */
export async function statePollCost(
  voices: number,
  seconds: number,
  modes: readonly PollMode[],
  bin = cliBin,
): Promise<StatePollRow[]> {
  const port = await freePort();
  const mock = await spawnServer(
    'mock',
    process.execPath,
    [bin, 'mock', '--port', String(port), '--seed', '1'],
    `http://127.0.0.1:${port}`,
    { path: '/v1/voice/list', headers: auth },
  );
  try {
    for (let left = voices, seed = 1; left > 0; left -= 1000, seed += 1) {
      const answer = await fetch(`${mock.url}/__mock/populate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ voices: Math.min(1000, left), seed }),
      });
      if (!answer.ok) throw new Error(`populate: ${answer.status} ${await answer.text()}`);
    }
    const listUrl = `${mock.url}/v1/voice/list?page_size=20`;
    await load(listUrl, auth, 1);
    const rows: StatePollRow[] = [];
    for (const mode of modes) {
      const poll = poller(mock.url, mode);
      const list = await load(listUrl, auth, seconds);
      await poll.stop();
      rows.push({ mode, list, pollMs: poll.times, pollBytes: poll.bytes() });
    }
    return rows;
  } finally {
    await mock.stop();
  }
}
