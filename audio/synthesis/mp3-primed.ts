/**
 * Primed MP3 encoders, made ahead of the streams that will use them. A lamejs `Mp3Encoder` builds its
 * quantization and psychoacoustic tables per instance (~1 ms warm, ~60 ms the first time; ~250 KB
 * each), and its first frame primes its filter bank (~0.3–0.8 ms): 50 mp3 streams arriving at once
 * each paid both before their first byte, the last one ~200 ms. A primed encoder is made and then fed the
 * silence every utterance of the synthesizer begins with (~60 ms of zero samples) until its first
 * frame comes out; an encoder is a pure function of its shape (rate, bit rate) and of the samples fed
 * so far, so a stream that begins with that silence takes the primed encoder and sends its first frame at
 * once, and every later byte is the one a new encoder would make. Imports lamejs's types only: the
 * caches that hold the primed encoders load no encoder.
 */

import type { Mp3Encoder } from '@breezystack/lamejs';

/** An encoder fed `silence` zero samples, and the frame they made (its first). */
export interface PrimedMp3Encoder {
  readonly encoder: Mp3Encoder;
  readonly silence: number;
  readonly firstFrame: Uint8Array;
}

/**
 * At most `capacity` primed encoders of one shape (the latest asked for; another shape empties them). A stream
 * takes one (`take`) if it begins with the primed encoder's silence; a stream makes one more after each chunk
 * it sends (`restock`), never before a first byte, until the primed encoders are full: a mock that encodes mp3
 * fills them during its first stream, and one that never does keeps none (nor loads lamejs).
 *
 * @example
 * const primed = primedEncoders.take(24_000, 64, (silence) => startsSilent(firstChunk, silence));
 * primedEncoders.restock(24_000, 64, () => primedEncoder(24_000, 64), 1); // after a chunk is sent
 */
export class PrimedMp3Encoders {
  private shape = '';
  private readonly primedEncoders: PrimedMp3Encoder[] = [];

  constructor(readonly capacity: number) {}

  /** A primed encoder of this shape whose silence `fits` the stream, if there is one (it is then the caller's). */
  take(sampleRate: number, kbps: number, fits: (silence: number) => boolean): PrimedMp3Encoder | undefined {
    const last = this.primedEncoders[this.primedEncoders.length - 1];
    if (!last || this.shape !== shapeOf(sampleRate, kbps) || !fits(last.silence)) return undefined;
    return this.primedEncoders.pop();
  }

  /** Whether `restock` of this shape would make one now (another shape's primed encoders would go first). */
  hasRoom(sampleRate: number, kbps: number): boolean {
    return shapeOf(sampleRate, kbps) !== this.shape || this.primedEncoders.length < this.capacity;
  }

  /** Makes up to `count` more primed encoders of this shape with `make`, while there is room: how many it made. */
  restock(sampleRate: number, kbps: number, make: () => PrimedMp3Encoder, count: number): number {
    const shape = shapeOf(sampleRate, kbps);
    if (shape !== this.shape) {
      this.primedEncoders.length = 0;
      this.shape = shape;
    }
    let made = 0;
    for (; made < count && this.primedEncoders.length < this.capacity; made++)
      this.primedEncoders.push(make());
    return made;
  }

  clear(): void {
    this.primedEncoders.length = 0;
  }

  /** Primed encoders kept now. */
  get size(): number {
    return this.primedEncoders.length;
  }
}

const shapeOf = (sampleRate: number, kbps: number): string => `${sampleRate}/${kbps}`;
