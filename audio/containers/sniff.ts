/**
 * The container formats (this folder): what the bytes of an audio file are, read from the bytes alone.
 * sniff.ts recognises the container; wav-header.ts is the kit's one RIFF/RF64 header reader (the analysis
 * through wav-riff.ts, and judge/audio.ts for the suite and the proxy); mpeg-frame.ts, mpeg-walk.ts and
 * mpeg-tag.ts read MPEG audio frames and their Xing/Info/VBRI/LAME tags; mp4-boxes.ts, mp4-timing.ts and
 * mp4-itunes-smpb.ts read ISO BMFF boxes; webm.ts and webm-lacing.ts read WebM/Matroska; opus-head.ts
 * and opus-packet.ts read Opus. Nothing here decodes audio.
 *
 * Integers of several bytes, EBML vints and text are read with bytes.ts (bit fields of a frame header
 * straight from the bytes); nothing outside this folder is imported but the shared types (../types.ts).
 */

import type { Container } from '../types.js';
import { readAscii, readVint } from './bytes.js';
import { adtsFrameLength, chainsAdts, chainsMpeg, mpegFrameAt } from './mpeg-frame.js';

/** What the first bytes of a file say it is. */
export interface Sniffed {
  readonly container: Container;
  /** The codec when the container header names it (Ogg first packet, MPEG layer); undefined otherwise. */
  readonly codec: string | undefined;
  /** A few words on what was recognised, for error messages. */
  readonly detail: string;
  /** Where the first audio frame starts (after ID3 tags for MP3); 0 for other containers. */
  readonly audioOffset: number;
}

const found = (
  container: Container,
  codec: string | undefined,
  detail: string,
  audioOffset = 0,
): Sniffed => ({
  container,
  codec,
  detail,
  audioOffset,
});

/**
 * Recognises the container of an audio file from its bytes alone; the file name plays no part, because
 * renaming a file does not convert it (spec §4.1).
 *
 * @example
 * sniff(new Uint8Array([0x66, 0x4c, 0x61, 0x43])).container; // 'flac'
 */
export function sniff(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return found('unknown', undefined, 'an empty file (0 bytes)');
  const magic = readAscii(bytes, 0, 4);
  if ((magic === 'RIFF' || magic === 'RF64' || magic === 'BW64') && readAscii(bytes, 8, 4) === 'WAVE') {
    return found('wav', undefined, `a ${magic}/WAVE file`);
  }
  if (magic === 'fLaC') return found('flac', 'flac', 'a FLAC file (fLaC)');
  if (magic === 'OggS') return sniffOgg(bytes);
  if (readAscii(bytes, 0, 8) === 'OpusHead') return found('opus', 'opus', 'raw Opus without a container');
  if (magic === '\x1a\x45\xdf\xa3') return sniffEbml(bytes);
  if (readAscii(bytes, 4, 4) === 'ftyp') return sniffIsoBmff(bytes);
  return sniffMpegFamily(bytes, 0);
}

/**
 * The container alone; see {@link sniff} for codec and detail.
 *
 * @example
 * sniffContainer(await file.bytes()); // 'wav' | 'mp3' | 'm4a' | 'ogg' | 'webm' | 'flac' | 'aac' | 'opus' | 'unknown'
 */
export function sniffContainer(bytes: Uint8Array): Container {
  return sniff(bytes).container;
}

function sniffOgg(bytes: Uint8Array): Sniffed {
  // The first page carries exactly the codec identification packet: its first bytes name the codec.
  const segments = bytes[26];
  if (segments === undefined) return found('unknown', undefined, 'a truncated Ogg page');
  const packet = 27 + segments;
  if (readAscii(bytes, packet, 8) === 'OpusHead') return found('ogg', 'opus', 'an Ogg file with Opus');
  if (readAscii(bytes, packet, 7) === '\x01vorbis') return found('ogg', 'vorbis', 'an Ogg file with Vorbis');
  if (readAscii(bytes, packet, 5) === '\x7fFLAC') return found('ogg', 'flac', 'an Ogg file with FLAC');
  if (readAscii(bytes, packet, 8) === 'Speex   ') return found('ogg', 'speex', 'an Ogg file with Speex');
  return found('ogg', undefined, 'an Ogg file with an unrecognised first packet');
}

function sniffEbml(bytes: Uint8Array): Sniffed {
  const size = readVint(bytes, 4);
  if (!size) return found('unknown', undefined, 'a truncated EBML header');
  const end = Math.min(bytes.length, 4 + size.length + size.value);
  let at = 4 + size.length;
  while (at < end) {
    const id = readVint(bytes, at, true);
    const length = id && readVint(bytes, at + id.length);
    if (!id || !length) break;
    const body = at + id.length + length.length;
    if (id.value === 0x4282) {
      // A DocType is a few letters; a longer one is shown cut, never read whole.
      const docType = readAscii(bytes, body, Math.min(length.value, 64)).replace(/\0+$/, '');
      // WebM is the Matroska profile the spec names; a plain Matroska file is another container.
      if (docType === 'webm') return found('webm', undefined, 'a WebM file');
      return found('unknown', undefined, `an EBML file of DocType "${docType}" (not WebM)`);
    }
    at = body + length.value;
  }
  return found('unknown', undefined, 'an EBML file without a DocType');
}

/** Major brands of ISO BMFF image formats, which never hold an audio track. */
const imageBrands = new Set(['heic', 'heix', 'hevc', 'mif1', 'msf1', 'avif', 'avis', 'crx ']);

function sniffIsoBmff(bytes: Uint8Array): Sniffed {
  const brand = readAscii(bytes, 8, 4);
  if (imageBrands.has(brand) || brand === 'qt  ') {
    return found('unknown', undefined, `an ISO BMFF file of brand "${brand.trim()}" (not M4A)`);
  }
  return found('m4a', undefined, `an ISO BMFF (M4A/MP4) file of brand "${brand.trim()}"`);
}

/** ID3v2 tags may precede MP3, ADTS AAC and even FLAC data; look behind them. */
function sniffMpegFamily(bytes: Uint8Array, start: number): Sniffed {
  let at = start;
  let tagged = false;
  while (readAscii(bytes, at, 3) === 'ID3') {
    const flags = bytes[at + 5] ?? 0;
    let size = 0;
    for (let i = 6; i < 10; i++) size = size * 128 + ((bytes[at + i] ?? 0) & 0x7f);
    at += 10 + size + (flags & 0x10 ? 10 : 0);
    tagged = true;
  }
  if (at >= bytes.length) return found('unknown', undefined, 'an ID3 tag without audio after it');
  if (readAscii(bytes, at, 4) === 'fLaC') return found('flac', 'flac', 'a FLAC file behind an ID3 tag');
  // Encoders may pad between the tag and the first frame; a short search covers that.
  const searchEnd = Math.min(bytes.length - 4, at + (tagged ? 65536 : 1));
  for (let i = at; i < searchEnd || i === at; i++) {
    const adts = adtsFrameLength(bytes, i);
    if (adts >= 7 && chainsAdts(bytes, i, adts))
      return found('aac', 'aac', 'raw AAC (ADTS) without a container');
    const frame = mpegFrameAt(bytes, i);
    if (frame && chainsMpeg(bytes, i, frame))
      return found('mp3', 'mp3', 'an MP3 file (MPEG audio Layer III)', i);
  }
  return found('unknown', undefined, 'bytes of no supported audio format');
}
