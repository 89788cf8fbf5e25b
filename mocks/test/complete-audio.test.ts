import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../../cli/test/run-cli.js';
import { pcmHeaders } from '../../openapi/contract.js';
import { StreamAnswer } from '../core/answer/answer.js';
import { createMockService } from '../core/service.js';
import { json, sameBytes, targetFactories, testServiceOptions } from './helpers.js';

/** A text of `characters` characters that starts with `seed` (10,000 at speed 0.25: ~55 minutes, ~165 MB of WAV). */
const story = (seed: string, characters: number) =>
  `${seed} A long story that goes on and on, told slowly, with commas, pauses; and questions? `
    .repeat(Math.ceil(characters / 80) + 1)
    .slice(0, characters);

const synthesis = (path: string, body: Record<string, unknown>) =>
  new Request(`http://mock.test${path}`, json(body));

describe('a complete answer (§4.5) is rendered as it is sent, never held whole', () => {
  it.each([
    ['wav', 3000],
    ['pcm', 3000],
    ['mp3', 30],
  ] as const)(
    '%s: a streamed answer with the exact Content-Length, the bytes of the stream',
    async (format, characters) => {
      const service = createMockService(testServiceOptions);
      const body = { generate_text: story('Complete.', characters), audio_format: format };
      const answer = await service.answer(synthesis('/v1/text-to-speech', body));
      expect(answer).toBeInstanceOf(StreamAnswer);
      const streamed = new Uint8Array(
        await (await service.fetch(synthesis('/v1/text-to-speech/stream', body))).arrayBuffer(),
      );
      const res = answer.toResponse();
      expect(res.headers.get('content-length')).toBe(String(streamed.byteLength));
      expect(sameBytes(new Uint8Array(await res.arrayBuffer()), streamed)).toBe(true);
    },
  );

  it.each(Object.entries(targetFactories))(
    '%s: the headers of a complete answer are those of bytes in memory (type, length, PCM headers), unchunked',
    async (_name, make) => {
      const target = await make();
      for (const format of ['wav', 'pcm', 'mp3'] as const) {
        const res = await target.request(
          '/v1/text-to-speech',
          json({ generate_text: story('Headers.', 25), audio_format: format }),
        );
        const bytes = new Uint8Array(await res.arrayBuffer());
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(
          { wav: 'audio/wav', pcm: 'audio/pcm', mp3: 'audio/mpeg' }[format],
        );
        expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
        expect(res.headers.get('transfer-encoding')).toBeNull();
        const pcm = [pcmHeaders.sampleRate, pcmHeaders.channels, pcmHeaders.bitDepth].map((h) =>
          res.headers.get(h),
        );
        expect(pcm).toEqual(format === 'pcm' ? ['24000', '1', '16'] : [null, null, null]);
      }
      await target.close();
    },
  );
});

/** The Node mock server in a process of its own (`voice-kit mock`), so that its memory is its own. */
async function serverProcess(): Promise<{ child: ChildProcess; url: string }> {
  const run = spawnCli(['mock', '--port', '0']);
  const url = /http:\/\/[\d.:]+/.exec(await run.firstLine)?.[0];
  if (url === undefined) throw new Error(`no URL in the mock's first line: ${run.output().stdout}`);
  return { child: run.child, url };
}

/** Resident set size and its high-water mark since the last reset, bytes (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

/** A complete answer read at full speed and thrown away: its length as announced and as received. */
function readWhole(url: string, body: unknown): Promise<{ announced: number; received: number }> {
  const payload = JSON.stringify(body);
  const headers = { 'Content-Type': 'application/json', 'X-API-Key': 'mock-key' };
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/text-to-speech`, { method: 'POST', agent: false, headers }, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.byteLength;
      });
      res.on('end', () => resolve({ announced: Number(res.headers['content-length']), received }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe.runIf(process.platform === 'linux')('memory of long complete answers (Node server)', () => {
  it('two concurrent 10,000-character WAVs at speed 0.25 (~165 MB each) grow the server by under 200 MB', async () => {
    const { child, url } = await serverProcess();
    try {
      const pid = child.pid as number;
      // Loads the synthesizer first.
      await readWhole(url, { generate_text: story('Warm.', 100), audio_format: 'wav' });
      const before = memoryOf(pid).rss;
      try {
        // Resets the high-water mark to the present RSS.
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        // Not permitted here: the peak then counts from the start, which only overstates the growth.
      }
      const bodies = await Promise.all(
        ['One.', 'Two.'].map((seed) =>
          readWhole(url, { generate_text: story(seed, 10_000), speed: 0.25, audio_format: 'wav' }),
        ),
      );
      const growthMB = (memoryOf(pid).peak - before) / 1e6;
      for (const { announced, received } of bodies) {
        expect(announced).toBeGreaterThan(150e6);
        expect(received).toBe(announced);
      }
      // Held whole, they grew it by ~700 MB.
      expect(growthMB, `peak RSS growth ${growthMB.toFixed(1)} MB`).toBeLessThan(200);
    } finally {
      child.kill();
    }
  });
});
