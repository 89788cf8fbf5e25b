/** Samples at 48 kHz per frame of each TOC configuration class (RFC 6716 §3.1, Table 2). */
const silkSamples = [480, 960, 1920, 2880];
const hybridSamples = [480, 960];
const celtSamples = [120, 240, 480, 960];

function frameSamples(config: number): number {
  if (config < 12) return silkSamples[config % 4] as number;
  if (config < 16) return hybridSamples[config % 2] as number;
  return celtSamples[config % 4] as number;
}

/**
 * The audio an Opus packet holds, in samples at 48 kHz, from its TOC byte alone (RFC 6716 §3.1): the
 * frame size of its configuration times its frame count. Container timestamps are often rounded to the
 * millisecond, which is too coarse to tell 60.000 s from 60.001 s; packet sizes are exact. Returns 0 for
 * an empty packet or a code-3 packet without its frame-count byte: the decoder rejects those anyway.
 *
 * @example
 * opusPacketSamples(Uint8Array.of(0xfc, 0x00)); // 960: CELT 20 ms, one frame
 */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : (packet[1] ?? 0) & 0x3f;
  return frames * frameSamples(toc >> 3);
}
