import {
  analyze,
  encodeWav,
  synthesize,
  synthesizeSamples,
  synthesizeToBytes,
  systemVoices,
} from '../../audio/index.js';
import { mp3Chunks } from '../../audio/synthesis/mp3-encode.js';
import type { VoiceProfile } from '../../audio/types.js';

const voice = systemVoices[0] as VoiceProfile;

/** A text long enough for about `seconds` of speech from the default voice. */
export function textForSeconds(seconds: number): string {
  const sentence = 'The quick brown fox jumps over the lazy dog, and then it rests for a while. ';
  let text = sentence;
  while (synthesize({ text, voice, format: 'pcm' }).durationSeconds < seconds) text += sentence;
  return text;
}

/** CPU milliseconds (user + system) spent by `work`, best of `rounds`, so one GC pause does not decide. */
function cpuMs(work: () => void, rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i += 1) {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** Seconds of audio made per second of CPU, for each output format (`seconds` of speech, 60 unless smoke). */
export function synthesisSpeed(
  rounds: number,
  seconds = 60,
): Record<'wav' | 'mp3', { audioSeconds: number; cpuMs: number; realtimeFactor: number }> {
  const text = textForSeconds(seconds);
  const out = {} as Record<'wav' | 'mp3', { audioSeconds: number; cpuMs: number; realtimeFactor: number }>;
  for (const format of ['wav', 'mp3'] as const) {
    const audioSeconds = synthesize({ text, voice, format }).durationSeconds;
    synthesizeToBytes({ text, voice, format }); // warm-up: JIT and tables
    const ms = cpuMs(
      () => synthesizeToBytes({ text, voice, format }),
      format === 'wav' ? rounds : Math.max(1, rounds >> 1),
    );
    out[format] = { audioSeconds, cpuMs: ms, realtimeFactor: audioSeconds / (ms / 1000) };
  }
  return out;
}

/**
 * A reference recording of exactly `seconds` of speech as WAV, and as MP3. The MP3 holds slightly less
 * PCM: the encoder adds priming and padding (no gapless tag), and its frames must still fit in the
 * 60 s limit, or the analysis would refuse it by duration without decoding it.
 */
export async function referenceOf(seconds: number): Promise<Record<'wav' | 'mp3', Uint8Array>> {
  const { samples, sampleRate } = synthesizeSamples({ text: textForSeconds(seconds + 1), voice });
  const exact = samples.subarray(0, Math.round(seconds * sampleRate));
  const wav = encodeWav(exact, { sampleRate, channels: 1, bitDepth: 16 });
  const first = Buffer.concat([...mp3Chunks([exact], sampleRate)]);
  const measured = await analyze(first);
  const excess = Math.max(0, Math.ceil(((measured.durationSeconds ?? seconds) - seconds) * sampleRate));
  const mp3 =
    excess === 0
      ? first
      : Buffer.concat([...mp3Chunks([exact.subarray(0, exact.length - excess)], sampleRate)]);
  return { wav, mp3 };
}

/** Wall milliseconds to analyse a reference recording of `seconds` as WAV and as MP3 (best of `rounds`). */
export async function analysisSpeed(
  rounds: number,
  seconds = 60,
): Promise<Record<'wav' | 'mp3', { audioSeconds: number; ms: number; accepted: boolean }>> {
  const references = await referenceOf(seconds);
  const out = {} as Record<'wav' | 'mp3', { audioSeconds: number; ms: number; accepted: boolean }>;
  for (const format of ['wav', 'mp3'] as const) {
    const bytes = references[format];
    const first = await analyze(bytes); // warm-up
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < rounds; i += 1) {
      const started = performance.now();
      await analyze(bytes);
      best = Math.min(best, performance.now() - started);
    }
    out[format] = {
      audioSeconds: first.durationSeconds ?? Number.NaN,
      ms: best,
      accepted: first.ok,
    };
  }
  return out;
}
