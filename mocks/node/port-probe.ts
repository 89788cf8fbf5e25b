import { createServer } from 'node:net';

/**
 * Listens on `port` of `host` and closes again at once: a busy port (EADDRINUSE) rejects here, before
 * the mock creates a state dir it would then leave behind. Port 0 (any free port) needs no probe.
 *
 * @example
 * await probePort(4010, '127.0.0.1'); // rejects with EADDRINUSE when another server has it
 */
export function probePort(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
