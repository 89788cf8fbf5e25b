/**
 * Fair turns for audio being rendered: every stream and complete answer of one service renders in
 * short slices, round-robin, so that 50 streams at once share the event loop instead of running one
 * after another (a WAV stream of 2,000 characters renders for ~50 ms without a pause, and its
 * socket rarely pushes back on loopback). Without it, the 50th stream's first byte waited for the 49
 * before it, and a list request for all of them.
 *
 * A renderer's first chunk is made at once when nothing else renders; else it waits with the other
 * newcomers, who go before every renderer already streaming, one chunk each. A turn that served
 * newcomers gives those already streaming one slice more, then ends: newcomers come in bursts (50
 * clients at once), and the rest of the burst is still in the sockets, read only between turns. A turn (one macrotask of
 * the injected yield: setImmediate on Node, a MessageChannel message in browsers) hands the queue's
 * head a slice of `sliceMs`; when that slice is over, the renderer queues again at the tail and the
 * next one goes on, one after another, until the turn has run `turnMs`; the rest wait for the next
 * turn, after the event loop has read its sockets (new requests, lists). A renderer that stops
 * mid-slice (its client went away, its socket pushes back) holds up the others for no longer than
 * this turn. Only when a chunk is made changes, never its bytes. Imports nothing of the kit.
 */

/** How long one renderer goes on before the next one's slice, ms (its chunks and their writes). */
const defaultSliceMs = 1;
/**
 * How long one turn of slices may run before the event loop reads its sockets again, ms. A turn's end
 * costs one pass of the event loop (tens of µs); a request that comes meanwhile waits for it, twice
 * for a new connection (its accept, then its head): longer turns cost the last newcomer of a burst
 * more than they save.
 */
const defaultTurnMs = 1;

/** The options of a FairTurns, for tests; the defaults fit the Node server. */
export interface FairTurnsOptions {
  readonly sliceMs?: number;
  readonly turnMs?: number;
  /** The clock slices are measured with (performance.now by default). */
  readonly now?: () => number;
}

/**
 * The round-robin queue of one service. `slice()` gives each renderer its own handle.
 *
 * @example
 * const slice = new FairTurns(deps.sleep).slice();
 * const due = slice.due(); // undefined: render the next chunk now; a promise: render when it resolves
 */
export class FairTurns {
  private readonly queue: Slice[] = [];
  /** Renderers waiting for their first chunk: they go first. */
  private readonly newcomers: Slice[] = [];
  private scheduled = false;
  /** Until when the current turn hands out slices (performance.now() ms). */
  private turnEndsAt = Number.NEGATIVE_INFINITY;
  /** The renderer whose slice runs now, if any. */
  private holder: Slice | undefined;
  /** Whether this turn served a newcomer: it then ends one slice after those already streaming go on. */
  private burst = false;
  readonly sliceMs: number;
  readonly turnMs: number;
  readonly now: () => number;

  constructor(
    private readonly yieldNow: (ms: number) => Promise<void>,
    options: FairTurnsOptions = {},
  ) {
    this.sliceMs = options.sliceMs ?? defaultSliceMs;
    this.turnMs = options.turnMs ?? defaultTurnMs;
    this.now = options.now ?? (() => performance.now());
  }

  /** A renderer's handle: ask its `due()` before each chunk but the first; `done()` when it stops. */
  slice(): Slice {
    return new Slice(this);
  }

  /** How many renderers wait for a slice. */
  get waiting(): number {
    return this.queue.length + this.newcomers.length;
  }

  /** Whether nothing renders or waits to: a first chunk is then made at once. */
  get idle(): boolean {
    return this.holder === undefined && this.waiting === 0;
  }

  /** Queues a renderer (its slice over, or its first chunk made, or to come); the next one goes on. */
  enqueue(slice: Slice, newcomer = false): void {
    if (this.holder === slice) this.holder = undefined;
    (newcomer ? this.newcomers : this.queue).push(slice);
    this.passOn();
  }

  /** A renderer stopped (its end, or its reader went away): out of the queue, and the next one goes on. */
  stop(slice: Slice): void {
    if (this.holder === slice) this.holder = undefined;
    for (const queue of [this.queue, this.newcomers]) {
      const at = queue.indexOf(slice);
      if (at >= 0) queue.splice(at, 1);
    }
    this.passOn();
  }

  /**
   * The queue's head goes on if nobody holds a slice and this turn has time left (newcomers first);
   * whoever still waits has the next turn asked for, even if the holder never releases
   * (its socket pushes back).
   */
  private passOn(): void {
    const now = this.now();
    if (this.holder === undefined && this.waiting > 0 && now < this.turnEndsAt) {
      const newcomer = this.newcomers.shift();
      if (newcomer) this.burst = true;
      else if (this.burst) {
        this.burst = false;
        this.turnEndsAt = Math.min(this.turnEndsAt, now + this.sliceMs);
      }
      const next = newcomer ?? (now < this.turnEndsAt ? this.queue.shift() : undefined);
      if (next) {
        this.holder = next;
        next.grant();
      }
    }
    if (this.waiting > 0 && !this.scheduled) {
      this.scheduled = true;
      this.yieldNow(0).then(this.turn);
    }
  }

  /** A new turn, after the event loop has had its own: a holder that never released is passed over. */
  private readonly turn = (): void => {
    this.scheduled = false;
    this.turnEndsAt = this.now() + this.turnMs;
    this.burst = false;
    this.holder = undefined;
    this.passOn();
  };
}

/** One renderer's share of the turns. */
export class Slice {
  private startedAt = Number.NaN;
  private granted: (() => void) | undefined;

  constructor(private readonly turns: FairTurns) {}

  /**
   * Before the first chunk: undefined when nothing else renders (make it at once), else a promise of
   * this newcomer's turn, before those already streaming. Its slice is that one chunk.
   */
  first(): Promise<void> | undefined {
    const { turns } = this;
    if (turns.idle) return undefined;
    return new Promise((resolve) => {
      this.granted = () => {
        this.startedAt = Number.NaN;
        resolve();
      };
      turns.enqueue(this, true);
    });
  }

  /**
   * Before each chunk but the first: undefined while this renderer's slice goes on; else a promise of
   * its next slice (it queues at the tail, and the next renderer goes on).
   */
  due(): Promise<void> | undefined {
    const { turns } = this;
    if (turns.now() - this.startedAt < turns.sliceMs) return undefined;
    return new Promise((resolve) => {
      this.granted = resolve;
      turns.enqueue(this);
    });
  }

  /**
   * This renderer stops (its end, or its reader went away): the next one goes on. A wait for its
   * next slice resolves at once, so that whoever waits sees it has stopped.
   */
  done(): void {
    this.startedAt = Number.NaN;
    const resolve = this.granted;
    this.granted = undefined;
    this.turns.stop(this);
    resolve?.();
  }

  /** Called by the turns: this renderer's slice begins. */
  grant(): void {
    this.startedAt = this.turns.now();
    const resolve = this.granted;
    this.granted = undefined;
    resolve?.();
  }
}
