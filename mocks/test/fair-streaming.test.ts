/**
 * Streams at once take turns (mocks/core/fair-turns.ts): proven by the order things arrive in, never by
 * milliseconds. The server runs in a process of its own (`voice-kit mock`),
 * so the clients here read while it renders.
 */
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../../cli/test/run-cli.js';

let child: ChildProcess;
let url: string;

beforeAll(async () => {
  const run = spawnCli(['mock', '--port', '0']);
  child = run.child;
  url = /http:\/\/[\d.:]+/.exec(await run.firstLine)?.[0] ?? '';
}, 30_000);

afterAll(() => {
  child.kill();
});

/** What the clients saw, in the order they saw it. */
type Event = { stream: number; kind: 'first' | 'end' } | { kind: 'list' };

/** Sends one request and notes its first body byte and its end in `events`. */
function send(
  path: string,
  body: unknown,
  events: Event[],
  stream: number,
): Promise<{ status: number; bytes: number }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'x-api-key': 'mock-key' },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) events.push({ stream, kind: 'first' });
          bytes += chunk.byteLength;
        });
        res.on('end', () => {
          events.push({ stream, kind: 'end' });
          resolve({ status: res.statusCode ?? 0, bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const story = (n: number) =>
  `Stream ${n} tells a long story, slowly and with many words, to be heard as it is made. `
    .repeat(40)
    .slice(0, 3000);

describe('concurrent streams take turns on the Node server', () => {
  it.each(['wav', 'pcm'])(
    '%s: every stream sounds before any stream ends, and each body is whole',
    async (format) => {
      const events: Event[] = [];
      const streams = Array.from({ length: 6 }, (_, i) =>
        send('/v1/text-to-speech/stream', { generate_text: story(i), audio_format: format }, events, i),
      );
      const answers = await Promise.all(streams);
      expect(answers.every((a) => a.status === 200 && a.bytes > 10_000_000)).toBe(true);
      const firstEnd = events.findIndex((e) => e.kind === 'end');
      const firsts = events.slice(0, firstEnd).filter((e) => e.kind === 'first');
      expect(firsts).toHaveLength(6);
    },
    30_000,
  );

  it('a list request sent while the streams render is answered before the first of them ends', async () => {
    const events: Event[] = [];
    const streams = Array.from({ length: 6 }, (_, i) =>
      send('/v1/text-to-speech/stream', { generate_text: story(i), audio_format: 'wav' }, events, i),
    );
    // Sent once every stream has sounded: the server is busy rendering all six.
    while (events.filter((e) => e.kind === 'first').length < 6)
      await new Promise((resolve) => setTimeout(resolve, 1));
    const listed = await fetch(`${url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
    await listed.arrayBuffer();
    events.push({ kind: 'list' });
    await Promise.all(streams);
    expect(listed.status).toBe(200);
    const list = events.findIndex((e) => e.kind === 'list');
    expect(events.findIndex((e) => e.kind === 'end')).toBeGreaterThan(list);
  }, 30_000);
});
