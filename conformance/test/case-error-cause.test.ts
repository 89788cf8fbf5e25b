/**
 * A case that throws says why: undici's "fetch failed" keeps the reason (ECONNREFUSED, ENOTFOUND...)
 * in `cause`, and the result, the terminal and the reports carry it.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type ConformanceCase, runConformance } from '../index.js';
import { terminalProgress } from '../reporters/terminal.js';

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const throwing = (id: string, severity: ConformanceCase['severity'], error: () => Promise<unknown>) =>
  ({ id, section: '§2.1', severity, title: id, run: async () => void (await error()) }) as ConformanceCase;

describe('a case that threw', () => {
  it('reports a fetch failure with its cause, in the result and on the terminal', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1/voice/list`;
    const lines: string[] = [];
    const run = await runConformance({
      cases: [
        throwing('x.refused', 'must', () => fetch(url)),
        throwing('x.observed', 'observe', () => fetch(url)),
      ],
      onProgress: terminalProgress((l) => lines.push(l)),
    });
    const [refused, observed] = run.results;
    expect(refused).toMatchObject({ outcome: 'error' });
    expect(refused?.error).toMatch(/^fetch failed: .*ECONNREFUSED/);
    expect(observed?.notes.join('\n')).toMatch(/the probe threw: fetch failed: .*ECONNREFUSED/);
    expect(lines.join('\n')).toMatch(/threw: fetch failed: .*ECONNREFUSED/);
  });

  it('keeps a message that needs no cause as it is', async () => {
    const run = await runConformance({
      cases: [throwing('x.plain', 'must', () => Promise.reject(new Error('no voice to check')))],
    });
    expect(run.results[0]?.error).toBe('no voice to check');
  });
});
