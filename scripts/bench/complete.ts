import { request } from 'node:http';
import { apiKey, spawnMock } from './http-bench.js';
import { memoryOf, resetPeak, type Spawned } from './servers.js';

/** How a client reads a complete answer: as fast as it comes, or a little at a time for a while. */
export type Reader = { readonly kind: 'fast' } | { readonly kind: 'slow'; readonly seconds: number };

/** What one client saw of a complete answer (POST /v1/text-to-speech). */
export interface CompleteReading {
  readonly status: number;
  readonly contentLength: number | undefined;
  readonly chunked: boolean;
  readonly bytes: number;
  readonly firstByteMs: number;
  readonly totalMs: number;
  /** The whole body arrived (a slow reader stops before the end). */
  readonly ended: boolean;
}

/**
 * One complete synthesis over node:http. A fast reader takes the body as it comes and throws it away;
 * a slow one takes one socket read every 50 ms (~1 MB/s at most) for `seconds` after the first byte,
 * then hangs up.
 */
export function readComplete(url: string, body: unknown, reader: Reader): Promise<CompleteReading> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = Number.NaN;
    let bytes = 0;
    const req = request(
      `${url}/v1/text-to-speech`,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-api-key': apiKey,
        },
      },
      (res) => {
        const length = res.headers['content-length'];
        const done = (ended: boolean) =>
          resolve({
            status: res.statusCode ?? 0,
            contentLength: length === undefined ? undefined : Number(length),
            chunked: res.headers['transfer-encoding'] === 'chunked',
            bytes,
            firstByteMs,
            totalMs: performance.now() - started,
            ended,
          });
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) {
            firstByteMs = performance.now() - started;
            if (reader.kind === 'slow')
              setTimeout(() => {
                req.destroy();
                done(false);
              }, reader.seconds * 1000);
          }
          bytes += chunk.length;
          if (reader.kind === 'slow') {
            res.pause();
            setTimeout(() => res.resume(), 50);
          }
        });
        res.on('end', () => done(true));
        res.on('error', () => done(false));
      },
    );
    req.on('error', (error) => (bytes > 0 ? undefined : reject(error)));
    req.end(payload);
  });
}

/** A text of `characters` characters that starts differently for each client, so no two share a plan. */
export const longText = (client: number, characters: number): string =>
  `${client} A long story that goes on and on, told slowly, with commas, pauses; and questions? `
    .repeat(Math.ceil(characters / 80) + 1)
    .slice(0, characters);

export interface CompleteMemory {
  readonly reader: Reader['kind'];
  readonly clients: number;
  readonly characters: number;
  readonly speed: number;
  readonly format: string;
  readonly readings: readonly CompleteReading[];
  readonly rssBeforeMB: number;
  /** Peak RSS of the server process while the answers were made and read, over its RSS before, MB (10^6 bytes). */
  readonly peakGrowthMB: number;
  readonly seconds: number;
}

/**
 * `clients` concurrent complete answers of `characters` characters at `speed`, against one freshly
 * spawned mock server (the built one, as `npm start` runs it), read fast or slowly: the server's peak
 * RSS growth (Linux: VmHWM after resetting it), and what each client saw.
 */
export async function completeMemory(
  reader: Reader,
  clients: number,
  characters: number,
  speed = 0.25,
  format = 'wav',
): Promise<CompleteMemory> {
  const mock: Spawned = await spawnMock();
  try {
    const pid = mock.child.pid as number;
    // Loads the synthesizer and warms the path once, on a short text.
    await readComplete(
      mock.url,
      { generate_text: longText(99, 200), speed, audio_format: format },
      { kind: 'fast' },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = memoryOf(pid).rss;
    resetPeak(pid);
    const started = performance.now();
    const readings = await Promise.all(
      Array.from({ length: clients }, (_, i) =>
        readComplete(
          mock.url,
          { generate_text: longText(i, characters), speed, audio_format: format },
          reader,
        ),
      ),
    );
    const peak = memoryOf(pid).peak;
    return {
      reader: reader.kind,
      clients,
      characters,
      speed,
      format,
      readings,
      rssBeforeMB: before / 1e6,
      peakGrowthMB: (peak - before) / 1e6,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await mock.stop();
  }
}
