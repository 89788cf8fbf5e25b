/**
 * `--shadow`: every complete exchange is compared, in the order the exchanges ended, by the
 * differential oracle (oracle/): an in-process mock core that follows the deployment's visible state.
 * With `--keys`, one oracle holds every key where it belongs; without, each API key is a scope (an
 * organization) of its own, with an oracle of its own. Differences come back as verdicts, later than
 * the judge's (the model answers asynchronously): `close()` waits for the last.
 */
import type { ExchangeFacts, KeyScope, Verdict } from '../judge/index.js';
import { createOracle, type Oracle, type OracleExchange } from '../oracle/index.js';

/**
 * Session rules the oracle says too, with its model beside the answer: with --shadow they would be a
 * second finding of one difference, so an exchange the shadow compares is not judged by them. A saved
 * voice's selectability stays: the oracle forgives a refusal of a text longer than any accepted yet.
 */
export const subsumedByShadow: ReadonlySet<string> = new Set([
  'session.saved-listed',
  'session.deleted-gone',
  'session.free-uses',
  'session.upload-free',
  'session.object-key-scope',
]);

/** Oracles kept at most without --keys (one per API key seen); later keys are not shadowed. */
const maxScopes = 64;

export class Shadow {
  private queue: Promise<void> = Promise.resolve();
  private readonly oracles = new Map<string, Promise<Oracle>>();
  private shared: Promise<Oracle> | undefined;

  constructor(
    private readonly keys: Readonly<Record<string, KeyScope>> | undefined,
    private readonly profile: unknown = undefined,
  ) {}

  /**
   * Compare one exchange after the ones before it; `report` gets its verdicts (or the oracle's
   * failure). False when no oracle compares it (a key past the cap of scopes).
   */
  observe(facts: ExchangeFacts, report: (verdicts: Verdict[], failure?: string) => void): boolean {
    const exchange = exchangeOf(facts);
    const oracle = this.oracleOf(first(facts.requestHeaders['x-api-key']));
    if (!oracle) return false;
    this.queue = this.queue
      .then(async () => report(await (await oracle).observe(exchange)))
      .catch((e: Error) => report([], `the shadow could not compare this exchange: ${e.message}`));
    return true;
  }

  /** Waits for every comparison asked for, then closes the models. */
  async close(): Promise<void> {
    await this.queue;
    const all = [...this.oracles.values(), ...(this.shared ? [this.shared] : [])];
    await Promise.all(all.map((o) => o.then((x) => x.close()).catch(() => undefined)));
  }

  private oracleOf(apiKey: string | undefined): Promise<Oracle> | undefined {
    const options = (keys: Record<string, KeyScope>) => ({
      keys,
      ...(this.profile !== undefined ? { profile: this.profile } : {}),
    });
    if (this.keys) {
      this.shared ??= createOracle(options({ ...this.keys }));
      return this.shared;
    }
    if (apiKey === undefined || apiKey === '') return this.oracles.values().next().value;
    let oracle = this.oracles.get(apiKey);
    if (!oracle && this.oracles.size < maxScopes) {
      const n = this.oracles.size + 1;
      oracle = createOracle(
        options({ [apiKey]: { organization: `org-${n}`, project: `project-${n}`, environment: 'env' } }),
      );
      this.oracles.set(apiKey, oracle);
    }
    return oracle;
  }
}

const first = (v: string | readonly string[] | undefined) =>
  Array.isArray(v) ? v[0] : (v as string | undefined);

/** The oracle's view of what the proxy saw (the upload's bytes passed on: the oracle stands in for them). */
function exchangeOf(f: ExchangeFacts): OracleExchange {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(f.requestHeaders)) {
    const value = first(v);
    if (value !== undefined) headers[k.toLowerCase()] = value;
  }
  const scene = f.form?.parts.find((p) => p.name === 'scene')?.text;
  const file = f.form?.parts.find((p) => p.name === 'file');
  return {
    seq: f.seq,
    at: Date.now(),
    request: {
      method: f.method,
      path: f.path,
      headers,
      ...(f.requestJson.kind === 'json' ? { json: f.requestJson.value } : {}),
      ...(f.form && file ? { form: { scene: scene ?? '', fileName: file.filename ?? '' } } : {}),
    },
    answer: {
      status: f.status,
      ...(f.responseJson.kind === 'json' ? { json: f.responseJson.value } : {}),
      ...(f.audio ? { audio: { kind: f.audio.kind, seconds: f.audio.seconds, bytes: f.audio.bytes } } : {}),
    },
  };
}
