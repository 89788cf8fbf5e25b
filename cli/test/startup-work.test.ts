/**
 * What `voice-kit mock` does before and just after its first answers: a list, then a stream, never
 * load Node's Fetch implementation (undici). The mock's list and stream paths use none of it (the Node
 * adapter reads requests from Node's own headers), and loading it took more of a fresh mock's start
 * than anything else: an ES import of node:http loads it (the namespace reads every export, and its
 * WebSocket getters load undici), and so did the warm-up's `new Headers`. A line written at exit says
 * whether Node loaded it; the stream makes sure the warm-up (started after the first answer) has run.
 */
import { describe, expect, it } from 'vitest';
import { spawnCli } from './run-cli.js';

const atExit = `process.on('exit', () => process.stderr.write('undici loaded: ' + process.moduleLoadList.some((m) => m.includes('undici')) + '\\n'));`;

describe('voice-kit mock: a list and a stream load no Fetch implementation', () => {
  it('answers a list and a 1,000-character stream, and exits without undici loaded', async () => {
    const mock = spawnCli(['mock', '--port', '0'], { preload: atExit });
    try {
      const url = /http:\/\/\S+?(?=[\s,)])/.exec(await mock.firstLine)?.[0];
      expect(url).toBeDefined();
      const headers = { 'X-API-Key': 'mock-key' };
      const list = await fetch(`${url}/v1/voice/list`, { headers });
      expect(list.status).toBe(200);
      await list.arrayBuffer();
      const stream = await fetch(`${url}/v1/text-to-speech/stream`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ generate_text: 'A stream of speech, said once. '.repeat(33) }),
      });
      expect(stream.status).toBe(200);
      expect((await stream.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    } finally {
      mock.child.kill('SIGINT');
    }
    expect(await mock.exited).toBe(0);
    expect(mock.output().stderr).toContain('undici loaded: false');
  });
});
