/**
 * Measures how long `analyze` takes on the largest WAVs a reference may be (60 s), and compares the kit's
 * RIFF reader with wavefile's generic decoder. A script, not a test: timings depend on the machine.
 *
 *   npx tsx audio/test/measure-analyze.ts [runs]
 */
import wavefile from 'wavefile';
import { analyze } from '../analysis/analyze.js';
import { decodeWavMono } from '../analysis/decode-wav.js';
import { readWav } from '../containers/wav-riff.js';
import { timeAsync } from './measure-timing.js';
import { speechLike, writeWav } from './signals.js';

const runs = Number(process.argv[2] ?? 30);

const timed = (run: () => Promise<unknown>) => timeAsync(runs, run);

const cases = [
  ['60 s, 24 kHz, 16-bit mono', 24000, 1, 16],
  ['60 s, 48 kHz, 16-bit stereo', 48000, 2, 16],
  ['60 s, 44.1 kHz, 24-bit stereo', 44100, 2, 24],
  ['60 s, 44.1 kHz, 32-bit float mono', 44100, 1, 32],
] as const;

for (const [name, sampleRate, channels, bits] of cases) {
  const signal = speechLike({ seconds: 60, sampleRate });
  const bytes = writeWav(new Array<Float32Array>(channels).fill(signal), {
    sampleRate,
    bits,
    encoding: bits === 32 ? 'float' : 'pcm',
  });
  const result = await analyze(bytes);
  console.log(`${name} (${(bytes.length / 1e6).toFixed(1)} MB): ${result.ok ? 'accepted' : result.verdict}`);
  console.log(`  analyze:            ${await timed(() => analyze(bytes))}`);
  const read = readWav(bytes);
  if (!read.ok) throw new Error(read.reason);
  const decimation = Math.floor(sampleRate / 4000);
  console.log(`  kit reader+decode:  ${await timed(async () => decodeWavMono(bytes, read.wav, decimation))}`);
  if (channels === 2 && bits === 16) {
    const wavefileRuns = await timed(async () => {
      const wave = new wavefile.WaveFile();
      wave.fromBuffer(bytes);
      return wave.getSamples(false, Float32Array);
    });
    console.log(`  wavefile decode:    ${wavefileRuns}`);
  }
}
