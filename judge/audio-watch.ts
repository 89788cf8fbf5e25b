/**
 * Incremental checks that audio bytes are what their Content-Type says, fed chunk by chunk (as they pass
 * through the proxy) or at once (a body the suite or the explorer holds: checkMp3), with bounded memory:
 * a WAV's head (up to its data chunk) is kept, an MP3 is walked frame by frame (only a frame header's few
 * bytes carried across chunks), PCM is only counted. Platform-free, like the rest of the judge.
 */
import { mpegFrameAt } from '../audio/containers/mpeg-frame.js';
import { readWavHead, type WavHead, wavPlaceholderSizes } from './audio.js';
import type { AudioKind, AudioSummary, PcmLayout } from './exchange.js';

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/** `Buffer.concat` without Node: the few bytes carried across chunks. */
function concat(parts: readonly Uint8Array[], total = parts.reduce((n, p) => n + p.length, 0)): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p.subarray(0, total - at), at);
    at += p.length;
    if (at >= total) break;
  }
  return out;
}

/**
 * Watches one audio body.
 *
 * @example
 * const watch = new AudioWatch('wav', { streamed: false, pcm: undefined });
 * res.on('data', (c) => watch.push(c));
 * res.on('end', () => console.log(watch.finish().problems));
 */
export class AudioWatch {
  private bytes = 0;
  private readonly problems: string[] = [];
  // WAV
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private wav: WavHead | undefined;
  // MP3
  private skip = 0;
  private pending: Uint8Array = new Uint8Array(0);
  private frames = 0;
  private samples = 0;
  private sampleRate = 0;
  private mpegState: 'start' | 'tag' | 'frames' | 'id3v1' | 'bad' = 'start';
  private prefix: Uint8Array = new Uint8Array(0);

  constructor(
    readonly kind: AudioKind,
    private readonly opts: { readonly streamed: boolean; readonly pcm: PcmLayout | undefined },
  ) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const start = this.bytes;
    this.bytes += chunk.length;
    if (this.kind === 'wav') this.pushWav(chunk);
    else if (this.kind === 'mp3') this.pushMp3(chunk);
    else if (this.kind === 'pcm' && start === 0) {
      const magic = ascii(chunk, 0, 4);
      if (magic === 'RIFF' || magic.startsWith('ID3'))
        this.problems.push(`a PCM body starts with a ${magic.slice(0, magic === 'RIFF' ? 4 : 3)} header`);
    }
  }

  finish(): AudioSummary {
    const problems = [...this.problems];
    let seconds: number | undefined;
    if (this.bytes === 0) problems.push('the audio body is empty');
    else if (this.kind === 'wav') seconds = this.finishWav(problems);
    else if (this.kind === 'mp3') seconds = this.finishMp3(problems);
    else {
      const layout = this.opts.pcm;
      if (layout) {
        const align = layout.channels * Math.ceil(layout.bitDepth / 8);
        if (align <= 0 || layout.sampleRate <= 0)
          problems.push(`the PCM headers give an impossible layout (${JSON.stringify(layout)})`);
        else {
          if (this.bytes % align !== 0)
            problems.push(
              `PCM length ${this.bytes} is not a multiple of the frame size ${align} (${layout.channels} channel(s) × ${layout.bitDepth} bits)`,
            );
          seconds = this.bytes / align / layout.sampleRate;
        }
      }
    }
    return { kind: this.kind, bytes: this.bytes, seconds, problems };
  }

  private pushWav(chunk: Uint8Array): void {
    if (this.wav || this.problems.length > 0) return;
    this.head.push(chunk);
    this.headBytes += chunk.length;
    const joined = concat(this.head, this.headBytes);
    const parsed = readWavHead(joined);
    if (parsed === undefined) {
      this.head = [joined];
      return;
    }
    this.head = [];
    if (typeof parsed === 'string') this.problems.push(parsed);
    else this.wav = parsed;
  }

  private finishWav(problems: string[]): number | undefined {
    const wav = this.wav;
    if (!wav) {
      if (problems.length === 0)
        problems.push(`no complete WAV header with a data chunk in ${this.bytes} bytes`);
      return undefined;
    }
    const streamed = this.opts.streamed;
    if (wav.riffSize !== this.bytes - 8 && !(streamed && wavPlaceholderSizes.has(wav.riffSize)))
      problems.push(
        `RIFF size ${wav.riffSize} does not match the body: ${this.bytes} bytes received, so ${this.bytes - 8} was expected`,
      );
    const available = Math.max(0, this.bytes - wav.dataOffset);
    const placeholder = streamed && wavPlaceholderSizes.has(wav.dataSize);
    if (
      !placeholder &&
      wav.dataSize !== available &&
      !(wav.dataSize % 2 === 1 && available === wav.dataSize + 1)
    )
      problems.push(`the data chunk claims ${wav.dataSize} bytes, ${available} were received`);
    const dataLen = placeholder ? available : Math.min(wav.dataSize, available);
    if (dataLen === 0) problems.push('the data chunk is empty');
    else if (dataLen % wav.blockAlign !== 0)
      problems.push(`data length ${dataLen} is not a multiple of the block align ${wav.blockAlign}`);
    return wav.byteRate > 0 ? dataLen / wav.byteRate : undefined;
  }

  private pushMp3(chunk: Uint8Array): void {
    let b = chunk;
    let base = this.bytes - chunk.length; // offset of b[0] in the body
    while (b.length > 0 && this.mpegState !== 'bad') {
      if (this.mpegState === 'start') {
        // An ID3v2 tag may lead: its size is in the first 10 bytes.
        const joined = concat([this.prefix, b]);
        if (joined.length < 10) {
          this.prefix = joined;
          return;
        }
        base -= this.prefix.length;
        this.prefix = new Uint8Array(0);
        b = joined;
        if (ascii(b, 0, 3) === 'ID3') {
          const size = ((b[6] ?? 0) << 21) | ((b[7] ?? 0) << 14) | ((b[8] ?? 0) << 7) | (b[9] ?? 0);
          this.skip = 10 + size + ((b[5] ?? 0) & 0x10 ? 10 : 0);
        }
        this.mpegState = 'frames';
        continue;
      }
      if (this.skip > 0) {
        const n = Math.min(this.skip, b.length);
        this.skip -= n;
        b = b.subarray(n);
        base += n;
        continue;
      }
      if (this.mpegState === 'id3v1') {
        this.problems.push(`bytes after the ID3v1 tag at byte ${base}`);
        this.mpegState = 'bad';
        return;
      }
      // A frame header: 4 bytes, possibly split across chunks.
      const need = 4 - this.pending.length;
      if (b.length < need) {
        this.pending = concat([this.pending, b]);
        return;
      }
      const header = this.pending.length > 0 ? concat([this.pending, b.subarray(0, need)]) : b.subarray(0, 4);
      const headerAt = base - this.pending.length;
      this.pending = new Uint8Array(0);
      const frame = mpegFrameAt(header, 0);
      if (!frame) {
        if (ascii(header, 0, 3) === 'TAG') {
          this.mpegState = 'id3v1';
          this.skip = 128 - 4; // the tag's 128 bytes, minus the 4 already read
          b = b.subarray(need);
          base += need;
          continue;
        }
        this.problems.push(
          `no MPEG audio frame at byte ${headerAt} (got ${[...header].map((x) => x.toString(16).padStart(2, '0')).join(' ')})${this.frames > 0 ? ` after ${this.frames} frames` : ''}`,
        );
        this.mpegState = 'bad';
        return;
      }
      if (this.sampleRate !== 0 && frame.sampleRate !== this.sampleRate) {
        this.problems.push(
          `the sample rate changes at byte ${headerAt} (${this.sampleRate} → ${frame.sampleRate} Hz)`,
        );
        this.mpegState = 'bad';
        return;
      }
      this.frames++;
      this.samples += frame.samples;
      this.sampleRate = frame.sampleRate;
      this.skip = frame.length - 4;
      b = b.subarray(need);
      base += need;
    }
  }

  private finishMp3(problems: string[]): number | undefined {
    if (this.mpegState === 'start' && problems.length === 0)
      problems.push(`${this.bytes} bytes are too few for an MPEG audio frame`);
    if (this.mpegState === 'frames') {
      if (this.frames === 0 && problems.length === 0) problems.push('no MPEG audio frame');
      else if (this.skip > 0 || this.pending.length > 0)
        problems.push(`the last MPEG frame is cut: ${this.skip || 4 - this.pending.length} bytes missing`);
    } else if (this.mpegState === 'id3v1' && this.skip > 0)
      problems.push(`the ID3v1 tag is cut: ${this.skip} bytes missing`);
    return this.sampleRate > 0 ? this.samples / this.sampleRate : undefined;
  }
}

/**
 * Check an MPEG audio body whole: an optional ID3v2 tag, then MPEG frames to the last byte (every frame
 * header valid, one sample rate, the last frame complete), then at most an ID3v1 tag. The walk is the
 * proxy's, fed the body at once.
 */
export function checkMp3(bytes: Uint8Array): string[] {
  const watch = new AudioWatch('mp3', { streamed: false, pcm: undefined });
  watch.push(bytes);
  return [...watch.finish().problems];
}
