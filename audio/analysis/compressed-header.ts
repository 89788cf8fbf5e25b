import { parseBuffer } from 'music-metadata';
import type { Sniffed } from '../containers/sniff.js';
import { audioDuration } from './duration-by-container.js';

/** What the headers of a compressed file say, read before (and without) decoding its samples. */
export interface CompressedInfo {
  /** The real (gapless) duration: encoder priming and padding left out where the file records them. */
  readonly durationSeconds: number;
  readonly sampleRate: number;
  readonly channels: number;
  readonly codec: string;
}

export type CompressedRead =
  | { readonly ok: true; readonly info: CompressedInfo }
  | { readonly ok: false /** A predicate: "has no audio stream". */; readonly reason: string };

/** The parser music-metadata should use for each container we accept (it must not guess on its own). */
const parserTypes: Partial<Record<Sniffed['container'], string>> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
};

/** Codecs each container may hold (spec §4.1: M4A holds AAC; OGG and WebM hold Opus, Vorbis is kept too). */
const allowedCodecs: Partial<Record<Sniffed['container'], RegExp>> = {
  mp3: /layer 3/i,
  m4a: /aac/i,
  ogg: /^(opus|vorbis)/i,
  webm: /^(a_)?(opus|vorbis)$/i,
};

/** Tracks of type 2 are audio in music-metadata's numbering (Matroska track types). */
const audioTrackType = 2;

function audioCodec(format: Awaited<ReturnType<typeof parseBuffer>>['format']): string | undefined {
  const audioTrack = format.trackInfo.find((track) => track.type === audioTrackType || track.audio);
  return audioTrack?.codecName ?? format.codec;
}

/**
 * Reads duration, sample rate, channels and codec of an MP3, M4A, OGG or WebM file from its headers
 * with music-metadata. Nothing is decoded here: the duration must be judged before any decoder runs, and
 * `decodeCompressed` (decode-compressed.ts) then decodes the containers it can.
 *
 * @example
 * const read = await readCompressed(bytes, sniff(bytes));
 * if (read.ok) console.log(read.info.durationSeconds);
 */
export async function readCompressed(bytes: Uint8Array, sniffed: Sniffed): Promise<CompressedRead> {
  const mimeType = parserTypes[sniffed.container];
  const allowed = allowedCodecs[sniffed.container];
  if (!mimeType || !allowed) return { ok: false, reason: 'is not a supported container' };
  let format: Awaited<ReturnType<typeof parseBuffer>>['format'];
  try {
    ({ format } = await parseBuffer(
      bytes,
      { mimeType, size: bytes.length },
      { duration: true, skipCovers: true },
    ));
  } catch (error) {
    return { ok: false, reason: `cannot be read (${(error as Error).message})` };
  }
  const codec = sniffed.codec === 'mp3' ? format.codec : audioCodec(format);
  if (!codec || (sniffed.container === 'webm' && !format.trackInfo.some((t) => t.type === audioTrackType))) {
    return { ok: false, reason: 'has no audio stream' };
  }
  if (!allowed.test(codec)) return { ok: false, reason: `holds ${codec} audio, which is not supported` };
  const duration = audioDuration(bytes, sniffed, { seconds: format.duration, sampleRate: format.sampleRate });
  if (typeof duration === 'string') return { ok: false, reason: duration };
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) {
    return { ok: false, reason: 'has no readable duration' };
  }
  return {
    ok: true,
    info: {
      durationSeconds: duration,
      sampleRate: format.sampleRate ?? 0,
      channels: format.numberOfChannels ?? 0,
      codec,
    },
  };
}
