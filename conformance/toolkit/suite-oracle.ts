/**
 * One run's differential oracle (oracle/) as the suite holds it: the exchanges of its cases observed
 * one after another in the order their answers came, whatever the cases await in parallel.
 */
import type { Verdict } from '../../judge/index.js';
import type { Oracle, OracleExchange } from '../../oracle/index.js';

/**
 * A run's oracle, made when the run's state is (RunState.oracle), shared by every copy of that state
 * (the housekeeping's first look at the free uses feeds it too). Its model is made on first use.
 */
export class SuiteOracle {
  private oracle: Promise<Oracle> | undefined;
  /** The observations in answer order: each waits for the one before. */
  private queue: Promise<unknown> = Promise.resolve();
  private seq = 0;
  private closed = false;

  /** `make` makes the oracle, on the first exchange. */
  constructor(private readonly make: () => Promise<Oracle>) {}

  /** Observe one exchange after those before it; `build` makes what the oracle is told (undefined: skip). */
  observe(build: (seq: number) => Promise<OracleExchange | 'resync' | undefined>): Promise<Verdict[]> {
    const next = this.queue.then(async (): Promise<Verdict[]> => {
      if (this.closed) return [];
      this.oracle ??= this.make();
      const oracle = await this.oracle;
      const exchange = await build(this.seq + 1);
      if (exchange === 'resync') await oracle.reset();
      if (exchange === undefined || exchange === 'resync') return [];
      this.seq += 1;
      return oracle.observe(exchange);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Close the model; later exchanges (the cleanup's) are not observed. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    await (await this.oracle)?.close();
  }
}
