/**
 * Canonical 44-byte WAV (RIFF/WAVE, PCM) headers and little-endian sample bytes.
 */

/** Size of the canonical header: RIFF chunk descriptor, 16-byte fmt chunk, data chunk header. */
export const WAV_HEADER_BYTES = 44;

export interface WavFormat {
  readonly sampleRate: number;
  readonly channels: number;
  /** Bits per sample: 8, 16, 24 or 32 (integer PCM). */
  readonly bitDepth: number;
}

/**
 * The 44-byte header of a PCM WAV file whose data chunk holds `dataBytes` bytes (exact sizes up front,
 * so a streamed file is complete and seekable as soon as it ends).
 *
 * @example
 * const header = wavHeader(48000, { sampleRate: 24000, channels: 1, bitDepth: 16 }); // 1 s of mono
 */
export function wavHeader(dataBytes: number, format: WavFormat): Uint8Array {
  const header = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(header.buffer);
  const blockAlign = format.channels * (format.bitDepth / 8);
  const ascii = (at: number, text: string): void => {
    for (let i = 0; i < text.length; i++) header[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, format.channels, true);
  view.setUint32(24, format.sampleRate, true);
  view.setUint32(28, format.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, format.bitDepth, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  return header;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The little-endian bytes of 16-bit samples. On little-endian machines this is a view, not a copy.
 *
 * @example
 * int16Bytes(new Int16Array([1, -1])); // Uint8Array [1, 0, 255, 255]
 */
export function int16Bytes(samples: Int16Array): Uint8Array {
  if (littleEndian) return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] ?? 0, true);
  return bytes;
}

/**
 * A complete WAV file from mono 16-bit samples, each sample copied to every channel.
 *
 * @example
 * encodeWav(samples, { sampleRate: 96000, channels: 2, bitDepth: 16 });
 */
export function encodeWav(samples: Int16Array, format: WavFormat): Uint8Array {
  if (format.bitDepth !== 16) throw new RangeError('encodeWav writes 16-bit PCM only');
  const dataBytes = samples.length * format.channels * 2;
  const out = new Uint8Array(WAV_HEADER_BYTES + dataBytes);
  out.set(wavHeader(dataBytes, format), 0);
  const view = new DataView(out.buffer);
  let at = WAV_HEADER_BYTES;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i] ?? 0;
    for (let c = 0; c < format.channels; c++) {
      view.setInt16(at, s, true);
      at += 2;
    }
  }
  return out;
}
