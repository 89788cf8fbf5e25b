/**
 * The upstream's silence, timed: from the request's end to the answer's head and between two chunks
 * of the answer, never while the client is still sending or reading (a slow client's pace is not the
 * upstream's). Past the limit the upstream request is destroyed with an `UpstreamTimeout`.
 */
import type { ClientRequest } from 'node:http';

/** The error an upstream timeout destroys the upstream request with. */
export class UpstreamTimeout extends Error {
  readonly code = 'ETIMEDOUT';
}

export class Silence {
  private timer: NodeJS.Timeout | undefined;
  /** Set when the limit passed: how long the upstream was silent. */
  timedOut: string | undefined;

  /** `ms`: the limit (0: none). */
  constructor(
    private readonly upReq: ClientRequest,
    private readonly ms: number,
  ) {
    upReq.on('close', () => this.stop());
  }

  /** (Re)starts the count. */
  start(): void {
    if (this.ms <= 0 || this.upReq.destroyed) return;
    this.stop();
    this.timer = setTimeout(() => {
      this.timedOut = `the upstream sent nothing for ${this.ms} ms`;
      this.upReq.destroy(new UpstreamTimeout(this.timedOut));
    }, this.ms);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
