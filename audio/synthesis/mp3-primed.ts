/**
 * Spare MP3 encoders, made ahead of the streams that will use them. A lamejs `Mp3Encoder` builds its
 * quantization and psychoacoustic tables per instance (~1 ms warm, ~60 ms the first time; ~250 KB
 * each), and its first frame primes its filter bank (~0.3–0.8 ms): 50 mp3 streams arriving at once
 * each paid both before their first byte, the last one ~200 ms. A spare is made and then fed the
 * silence every utterance of the synthesizer begins with (~60 ms of zero samples) until its first
 * frame comes out; an encoder is a pure function of its shape (rate, bit rate) and of the samples fed
 * so far, so a stream that begins with that silence takes the spare and sends its first frame at
 * once, and every later byte is the one a new encoder would make. Imports lamejs's types only: the
 * caches that hold the spares load no encoder.
 */

import type { Mp3Encoder } from '@breezystack/lamejs';

/** An encoder fed `silence` zero samples, and the frame they made (its first). */
export interface Mp3Spare {
  readonly encoder: Mp3Encoder;
  readonly silence: number;
  readonly firstFrame: Uint8Array;
}

/**
 * At most `capacity` spares of one shape (the latest asked for; another shape empties them). A stream
 * takes one (`take`) if it begins with the spare's silence; a stream makes one more after each chunk
 * it sends (`restock`), never before a first byte, until the spares are full: a mock that encodes mp3
 * fills them during its first stream, and one that never does keeps none (nor loads lamejs).
 *
 * @example
 * const spare = spares.take(24_000, 64, (silence) => startsSilent(firstChunk, silence));
 * spares.restock(24_000, 64, () => spareEncoder(24_000, 64), 1); // after a chunk is sent
 */
export class Mp3Spares {
  private shape = '';
  private readonly spares: Mp3Spare[] = [];

  constructor(readonly capacity: number) {}

  /** A spare of this shape whose silence `fits` the stream, if there is one (it is then the caller's). */
  take(sampleRate: number, kbps: number, fits: (silence: number) => boolean): Mp3Spare | undefined {
    const last = this.spares[this.spares.length - 1];
    if (!last || this.shape !== shapeOf(sampleRate, kbps) || !fits(last.silence)) return undefined;
    return this.spares.pop();
  }

  /** Whether `restock` of this shape would make one now (another shape's spares would go first). */
  hasRoom(sampleRate: number, kbps: number): boolean {
    return shapeOf(sampleRate, kbps) !== this.shape || this.spares.length < this.capacity;
  }

  /** Makes up to `count` more spares of this shape with `make`, while there is room: how many it made. */
  restock(sampleRate: number, kbps: number, make: () => Mp3Spare, count: number): number {
    const shape = shapeOf(sampleRate, kbps);
    if (shape !== this.shape) {
      this.spares.length = 0;
      this.shape = shape;
    }
    let made = 0;
    for (; made < count && this.spares.length < this.capacity; made++) this.spares.push(make());
    return made;
  }

  clear(): void {
    this.spares.length = 0;
  }

  /** Spares kept now. */
  get size(): number {
    return this.spares.length;
  }
}

const shapeOf = (sampleRate: number, kbps: number): string => `${sampleRate}/${kbps}`;
