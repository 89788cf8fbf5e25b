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

/** What one exchange of the load came to: the answer's status, or why there was none (`ECONNRESET`). */
export type HeldOutcome = number | string;

export interface HeldLoad {
  readonly url: string;
  /**
   * Sends the load through `proxyUrl`; resolves when every exchange has ended, with what each came to.
   * Never rejects: a client reset, or left without an answer within `timeoutMs` (default 5 minutes:
   * the unbounded-budget rows of the bench take over 2 on a busy machine), is an outcome.
   */
  run(proxyUrl: string, onAllHeld?: () => void, timeoutMs?: number): Promise<HeldOutcome[]>;
  close(): Promise<void>;
}

/** One JSON text of `bytes` bytes that the synthesis schema would read. */
const jsonOf = (bytes: number) => {
  const head = '{"generate_text":"';
  return Buffer.from(`${head}${'a'.repeat(bytes - head.length - 2)}"}`);
};

/** Requests opened at a time: each batch is seen by the upstream before the next one opens. */
const batch = 100;

/**
 * An upstream for `clients` exchanges of `bytes`: `side` `request` holds each answer until all request
 * bodies arrived; `answer` sends each answer but its last byte, then the last bytes of all at once.
 * An exchange that failed before it reached the upstream is not waited for.
 */
export async function heldLoad(
  clients: number,
  bytes: number,
  side: 'request' | 'answer',
): Promise<HeldLoad> {
  const body = jsonOf(bytes);
  const held: Array<() => void> = [];
  let allHeld: () => void = () => undefined;
  /** The load requests the upstream has seen (by their x-load-seq), and how many ended before it did. */
  const arrived = new Set<string>();
  let lost = 0;
  let progressed: () => void = () => undefined;
  const release = () => {
    if (held.length === 0 || held.length < clients - lost) return;
    allHeld();
    for (const r of held.splice(0)) r();
  };
  const hold = (r: () => void) => {
    held.push(r);
    release();
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
    arrived.add(String(req.headers['x-load-seq']));
    progressed();
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
    async run(proxyUrl, onAllHeld, timeoutMs = 300_000) {
      allHeld = () => onAllHeld?.();
      arrived.clear();
      lost = 0;
      const one = (seq: string) =>
        new Promise<HeldOutcome>((resolve) => {
          const req = http.request(`${proxyUrl}/v1/text-to-speech`, {
            method: 'POST',
            agent,
            headers: { 'x-api-key': 'k', 'content-type': 'application/json', 'x-load-seq': seq },
          });
          const timer = setTimeout(() => req.destroy(new Error('no answer')), timeoutMs);
          let ended = false;
          const end = (outcome: HeldOutcome) => {
            if (ended) return;
            ended = true;
            clearTimeout(timer);
            // An exchange that never reached the upstream (reset on its way) holds nobody back.
            if (!arrived.has(seq)) {
              lost++;
              release();
              progressed();
            }
            resolve(outcome);
          };
          req.on('response', (res) => {
            res.on('error', (error: NodeJS.ErrnoException) => end(error.code ?? error.message));
            res.resume();
            res.on('end', () => end(res.statusCode ?? 0));
          });
          req.on('error', (error: NodeJS.ErrnoException) => end(error.code ?? error.message));
          req.end(side === 'request' ? body : '{"generate_text":"a"}');
        });
      // Requests open in batches, each one seen by the upstream (so accepted by the proxy) before the
      // next: 1,000 at once overflow the listen backlogs (511) of a busy proxy and upstream, and the
      // kernel resets the connections it dropped. The first answers wait for all of them anyway.
      const outcomes: Promise<HeldOutcome>[] = [];
      for (let started = 0; started < clients; started += batch) {
        const target = Math.min(started + batch, clients);
        while (outcomes.length < target) outcomes.push(one(String(outcomes.length)));
        await new Promise<void>((resolve) => {
          progressed = () => {
            if (arrived.size + lost >= target) resolve();
          };
          progressed();
        });
      }
      progressed = () => undefined;
      return Promise.all(outcomes);
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
