/**
 * Decoding a synthesis body whole (music-metadata) to a duration, after the judge's framing checks
 * (judge/audio.ts): the suite holds whole bodies and decodes them; the proxy and the mock do not.
 */
import { parseBuffer } from 'music-metadata';
import { type ClaimedAudio, checkPcm, checkWav, claimedAudio, silenceProblem } from '../../judge/audio.js';
import { checkMp3 } from '../../judge/audio-watch.js';
import type { PcmLayout } from '../../judge/exchange.js';

export type { ClaimedAudio, PcmLayout };

/** What the bytes turned out to be, and every way they disagree with the claim. */
export interface AudioVerdict {
  readonly claimed: ClaimedAudio;
  readonly problems: readonly string[];
  /** Duration from a real decode (music-metadata) or from the PCM layout; null when unknown. */
  readonly durationSeconds: number | null;
}

/**
 * Judge a synthesis body against its Content-Type: sniff the container, then decode WAV and MP3 with
 * music-metadata to read a duration.
 *
 * @example
 * const v = await judgeAudio(bytes, res.headers.get('content-type'), { streamed: false, pcm: null });
 * if (v.problems.length) console.log(v.problems);
 */
export async function judgeAudio(
  bytes: Uint8Array,
  contentType: string | null,
  opts: {
    readonly streamed: boolean;
    readonly pcm: PcmLayout | null;
    /** The text was not empty: 16-bit WAV/PCM must not be silent. */
    readonly expectSound?: boolean;
  },
): Promise<AudioVerdict> {
  const claimed = claimedAudio(contentType);
  const silent = () => (opts.expectSound ? silenceProblem(bytes, claimed, opts.pcm) : undefined);
  if (claimed === 'pcm') {
    const problems = checkPcm(bytes, opts.pcm);
    const quiet = problems.length === 0 ? silent() : undefined;
    if (quiet) problems.push(quiet);
    const align = opts.pcm ? opts.pcm.channels * Math.ceil(opts.pcm.bitDepth / 8) : 0;
    const duration = opts.pcm && align > 0 ? bytes.byteLength / align / opts.pcm.sampleRate : null;
    return { claimed, problems, durationSeconds: duration };
  }
  const problems =
    claimed === 'wav' ? checkWav(bytes, opts.streamed) : claimed === 'mp3' ? checkMp3(bytes) : [];
  if (bytes.byteLength === 0) problems.push('the audio body is empty');
  let durationSeconds: number | null = null;
  if (problems.length === 0 && claimed !== 'other') {
    try {
      const meta = await parseBuffer(
        bytes,
        { mimeType: contentType ?? undefined, size: bytes.byteLength },
        {
          duration: true,
          skipCovers: true,
        },
      );
      durationSeconds = meta.format.duration ?? null;
      if (!durationSeconds || durationSeconds <= 0) problems.push('the decoder found no duration');
      const quiet = silent();
      if (quiet) problems.push(quiet);
    } catch (e) {
      problems.push(`the decoder refused the body: ${(e as Error).message}`);
    }
  }
  return { claimed, problems, durationSeconds };
}
