/**
 * A loopback HTTP server that serves one reference recording: the URL the `voice-save.reference.url`
 * case hands to the embedded mock (which fetches ref_audio URLs, §4.2), started and stopped by the run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FixtureFile } from '../toolkit/run-state.js';

/**
 * Serve `file` at `http://127.0.0.1:<port>/<name>` until `close`.
 *
 * @example
 * const ref = await serveReference({ name: 'valid-10s.wav', bytes }); try { ref.url } finally { await ref.close(); }
 */
export async function serveReference(
  file: FixtureFile,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const path = `/${encodeURIComponent(file.name)}`;
  const server = createServer((req, res) => {
    if (req.url !== path) return void res.writeHead(404).end();
    const type = file.name.endsWith('.wav') ? 'audio/wav' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': String(file.bytes.byteLength) });
    res.end(file.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
