import { request } from 'node:http';

/** Timings of one streamed synthesis, milliseconds from sending the request. */
export interface StreamTiming {
  readonly firstByteMs: number;
  readonly totalMs: number;
  readonly bytes: number;
  readonly chunked: boolean;
}

/** Sends one streaming synthesis request over node:http and times the first body byte and the end. */
export function timeStream(url: string, apiKey: string, body: unknown): Promise<StreamTiming> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = Number.NaN;
    let bytes = 0;
    const req = request(
      url,
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
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`stream answered ${res.statusCode}`));
          return;
        }
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
        });
        res.on('end', () =>
          resolve({
            firstByteMs,
            totalMs: performance.now() - started,
            bytes,
            chunked: res.headers['transfer-encoding'] === 'chunked',
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The p-th percentile (0..100) of a list, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}
