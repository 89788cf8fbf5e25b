/**
 * The in-flight load of red-team D9, for the memory test and `npm run bench`: `clients` requests, each
 * a JSON body of `bytes`, all in flight at once through a proxy to an upstream that holds every answer
 * until the last body has arrived (so the proxy has every exchange open, each body whole), or the
 * other way round: an upstream that sends each of them a JSON answer of `bytes` and stalls before the
 * end until all have been sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A documented refusal of synthesis (§7.3): the answer itself breaks no rule. */
function refuse(res: http.ServerResponse): void {
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end('{"error_code":10001,"error_message":"refused","succeed":false,"data":null}');
}

/** One exchange like the load's, answered at once: run it before measuring. */
export async function warmUp(proxyUrl: string): Promise<void> {
  const res = await fetch(`${proxyUrl}/v1/text-to-speech`, {
    method: 'POST',
    headers: { 'x-api-key': 'k', 'content-type': 'application/json', 'x-warm-up': '1' },
    body: '{"generate_text":"warm"}',
  });
  await res.arrayBuffer();
}

export interface HeldLoad {
  readonly url: string;
  /** Sends the load through `proxyUrl`; resolves when every answer has ended, with their statuses. */
  run(proxyUrl: string, onAllHeld?: () => void): Promise<number[]>;
  close(): Promise<void>;
}

/** One JSON text of `bytes` bytes that the synthesis schema would read. */
const jsonOf = (bytes: number) => {
  const head = '{"generate_text":"';
  return Buffer.from(`${head}${'a'.repeat(bytes - head.length - 2)}"}`);
};

/**
 * An upstream for `clients` exchanges of `bytes`: `side` `request` holds each answer until all request
 * bodies arrived; `answer` sends each answer but its last byte, then the last bytes of all at once.
 */
export async function heldLoad(
  clients: number,
  bytes: number,
  side: 'request' | 'answer',
): Promise<HeldLoad> {
  const body = jsonOf(bytes);
  const held: Array<() => void> = [];
  let allHeld: () => void = () => undefined;
  const hold = (release: () => void) => {
    held.push(release);
    if (held.length < clients) return;
    allHeld();
    for (const r of held.splice(0)) r();
  };
  const server = http.createServer({ keepAlive: false }, (req, res) => {
    req.resume();
    // A warm-up is answered at once as the load will be, so that the proxy's first judging of this
    // operation (its validators compiled on first use) is not counted as the load's growth; anything
    // else but the load (a readiness probe) is answered at once too: only the load is held.
    if (req.headers['x-warm-up'] || req.method !== 'POST') {
      req.on('end', () => refuse(res));
      return;
    }
    req.on('end', () => {
      if (side === 'request')
        return hold(() => {
          refuse(res);
        });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.write(body.subarray(0, body.length - 1), () => hold(() => res.end(body.subarray(body.length - 1))));
    });
  });
  server.maxConnections = clients + 10;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async run(proxyUrl, onAllHeld) {
      allHeld = () => onAllHeld?.();
      const one = (connected: () => void) =>
        new Promise<number>((resolve, reject) => {
          const req = http.request(`${proxyUrl}/v1/text-to-speech`, {
            method: 'POST',
            agent,
            headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
          });
          req.on('socket', (socket) => socket.once('connect', connected));
          req.on('response', (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end(side === 'request' ? body : '{"generate_text":"a"}');
        });
      // Connections open in batches: 1,000 at once overflow the listen backlog (511), and the kernel's
      // SYN retries (1 s, 3 s, 7 s…) would make the run a wait.
      const answers: Promise<number>[] = [];
      for (let started = 0; started < clients; started += 100) {
        const connected = Array.from(
          { length: Math.min(100, clients - started) },
          () => new Promise<void>((resolve) => answers.push(one(resolve))),
        );
        await Promise.all(connected);
      }
      return Promise.all(answers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
