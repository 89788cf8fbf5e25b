import { readOpusHead } from '../containers/opus-head.js';
import type { Sniffed } from '../containers/sniff.js';
import { webmAudioFrames } from '../containers/webm.js';
import { type DecodedChunk, MonoCollector, type MonoSignal } from './mono-collector.js';

/** Limits of one decode: the analysis rate, and the audio after which decoding stops. */
export interface DecodeOptions {
  readonly analysisRateHz: number;
  /**
   * Decoding stops once more than this much audio came out: the caller passes the duration it already
   * judged (at most 60 s) plus a little, so that a header understating its audio cannot buy unbounded work.
   */
  readonly maxSeconds: number;
}

export type Decode =
  | { readonly ok: true; readonly signal: MonoSignal }
  | { readonly ok: false /** A predicate: "is corrupt: …". */; readonly reason: string };

/** What each wasm decoder returns per call: a chunk, and the frames it could not decode. */
type Decoded = DecodedChunk & { readonly errors: readonly { readonly message: string }[] };

interface Job<Piece> {
  readonly pieces: Iterable<Piece>;
  readonly decode: (piece: Piece) => Decoded | Promise<Decoded>;
  readonly flush?: () => Promise<Decoded>;
}

/**
 * Container bytes per decode call. Decoding can only stop between calls, and 8 KiB holds at most 11 s of
 * audio (Opus at 6 kbit/s, the lowest rate), so no decoder runs far past the cap; smaller calls cost more.
 */
const chunkBytes = 8 * 1024;

function* byteChunks(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
}

/** Runs `load` on the first call only, and hands every caller the same promise. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

// Each wasm decoder module costs tens of milliseconds to import, so it is imported on the first file that
// needs it and never by merely importing the analysis: the mock starts as fast as before. A failing import
// is a broken installation, not a bad file, so it is left to throw.
const loadMpeg = once(() => import('mpg123-decoder'));
const loadOggOpus = once(() => import('ogg-opus-decoder'));
const loadOggVorbis = once(() => import('@wasm-audio-decoders/ogg-vorbis'));
const loadOpus = once(() => import('opus-decoder'));

/** Feeds the pieces to a decoder; the first decoder error ends it, since the file is corrupt already. */
async function collect<Piece>(job: Job<Piece>, options: DecodeOptions): Promise<Decode> {
  const mono = new MonoCollector(options.analysisRateHz);
  const take = (decoded: Decoded): Decode | undefined => {
    const error = decoded.errors[0];
    if (error) return { ok: false, reason: `is corrupt: its decoder rejects a frame (${error.message})` };
    if (!mono.add(decoded)) return { ok: false, reason: 'changes its sample rate within the stream' };
    return undefined;
  };
  for (const piece of job.pieces) {
    const failed = take(await job.decode(piece));
    if (failed) return failed;
    if (mono.seconds > options.maxSeconds) return { ok: true, signal: mono.finish() };
  }
  const failed = job.flush && take(await job.flush());
  return failed || { ok: true, signal: mono.finish() };
}

/**
 * Creates a decoder, waits until its wasm is instantiated, runs `use`, and always frees the decoder's
 * wasm memory. Whatever a decoder throws on hostile bytes becomes a refusal, never an exception.
 */
async function withDecoder<D extends { readonly ready: Promise<void>; free(): void | Promise<void> }>(
  create: () => D,
  use: (decoder: D) => Promise<Decode>,
): Promise<Decode> {
  let decoder: D | undefined;
  try {
    decoder = create();
    await decoder.ready;
    return await use(decoder);
  } catch (error) {
    return { ok: false, reason: `cannot be decoded (${(error as Error).message})` };
  } finally {
    try {
      await decoder?.free();
    } catch {
      // A decoder that never started has nothing to free.
    }
  }
}

async function decodeMp3(bytes: Uint8Array, sniffed: Sniffed, options: DecodeOptions): Promise<Decode> {
  const { MPEGDecoder } = await loadMpeg();
  // From the first frame: ID3 tags (covers, lyrics) are no audio, and mpg123 need not parse them.
  const audio = bytes.subarray(sniffed.audioOffset);
  return withDecoder(
    () => new MPEGDecoder(),
    (decoder) => collect({ pieces: byteChunks(audio), decode: (chunk) => decoder.decode(chunk) }, options),
  );
}

/** The streaming interface both Ogg decoders share: container bytes in, then a flush at the end. */
interface OggDecoder {
  decode(chunk: Uint8Array): Decoded | Promise<Decoded>;
  flush(): Promise<Decoded>;
}

async function decodeOgg(bytes: Uint8Array, sniffed: Sniffed, options: DecodeOptions): Promise<Decode> {
  const job = (decoder: OggDecoder) =>
    collect(
      { pieces: byteChunks(bytes), decode: (chunk) => decoder.decode(chunk), flush: () => decoder.flush() },
      options,
    );
  if (sniffed.codec === 'opus') {
    const { OggOpusDecoder } = await loadOggOpus();
    return withDecoder(() => new OggOpusDecoder(), job);
  }
  const { OggVorbisDecoder } = await loadOggVorbis();
  return withDecoder(() => new OggVorbisDecoder(), job);
}

async function decodeWebmOpus(bytes: Uint8Array, options: DecodeOptions): Promise<Decode> {
  const audio = webmAudioFrames(bytes);
  if (typeof audio === 'string') return { ok: false, reason: audio };
  const setup = readOpusHead(audio.codecPrivate);
  if (typeof setup === 'string') return { ok: false, reason: setup };
  const { OpusDecoder } = await loadOpus();
  return withDecoder(
    () => new OpusDecoder(setup),
    // Frame by frame: as fast as batches, and a corrupt file stops at its first bad frame.
    (decoder) => collect({ pieces: audio.frames, decode: (frame) => decoder.decodeFrame(frame) }, options),
  );
}

/**
 * Whether {@link decodeCompressed} can decode a file of this container and codec: MP3, Ogg Opus, Ogg Vorbis
 * and WebM Opus can. M4A (AAC) cannot, for want of an AAC decoder shipped in an npm package, and
 * WebM Vorbis cannot, because the Vorbis decoder only takes Ogg pages.
 *
 * @example
 * canDecode('ogg', 'vorbis'); // true
 * canDecode('m4a', 'aac'); // false
 */
export function canDecode(container: Sniffed['container'], codec: string): boolean {
  if (container === 'mp3' || container === 'ogg') return true;
  return container === 'webm' && /opus/i.test(codec);
}

/**
 * Decodes an MP3, Ogg (Opus, Vorbis) or WebM (Opus) file whose header was read, to one mono channel near
 * `analysisRateHz`. The wasm decoders are loaded on first use and freed after each file. Decoding stops
 * soon after `maxSeconds` of audio, and at the first frame the decoder rejects: such a file is refused
 * as corrupt, as is one whose decoder throws. Frame errors are judged strictly because real encoders
 * write none; damaged bytes that still decode (Opus and MP3 conceal many) come out as noise instead.
 *
 * @example
 * const decoded = await decodeCompressed(bytes, sniff(bytes), { analysisRateHz: 4000, maxSeconds: 8.6 });
 * if (decoded.ok) detectSpeech(decoded.signal.samples, decoded.signal.sampleRate);
 */
export async function decodeCompressed(
  bytes: Uint8Array,
  sniffed: Sniffed,
  options: DecodeOptions,
): Promise<Decode> {
  if (sniffed.container === 'mp3') return decodeMp3(bytes, sniffed, options);
  if (sniffed.container === 'ogg') return decodeOgg(bytes, sniffed, options);
  if (sniffed.container === 'webm') return decodeWebmOpus(bytes, options);
  return { ok: false, reason: `is a ${sniffed.container} file, which the kit cannot decode` };
}
