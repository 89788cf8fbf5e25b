/**
 * Measures how long `analyze` takes on the largest WAVs a reference may be (60 s), and compares the kit's
 * RIFF reader with wavefile's generic decoder. A script, not a test: timings depend on the machine.
 *
 *   npx tsx mocks/audio/test/measure-analyze.ts [runs]
 */
import wavefile from 'wavefile';
import { analyze } from '../analyze.js';
import { decodeWavMono, readWav } from '../wav-decode.js';
import { speechLike, writeWav } from './signals.js';

const runs = Number(process.argv[2] ?? 30);

function stats(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  return `first ${times[0]?.toFixed(1)} ms, median ${at(0.5)} ms, p90 ${at(0.9)} ms, min ${at(0)} ms`;
}

/** Wall time and this process's CPU time per run: on a shared, loaded machine the CPU time is the steadier. */
async function timeAsync(run: () => Promise<unknown>): Promise<string> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    await run();
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - start);
  }
  return `wall ${stats(wall)}\n                      cpu  ${stats(cpu)}`;
}

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
  console.log(`  analyze:            ${await timeAsync(() => analyze(bytes))}`);
  const read = readWav(bytes);
  if (!read.ok) throw new Error(read.reason);
  const decimation = Math.floor(sampleRate / 4000);
  console.log(
    `  kit reader+decode:  ${await timeAsync(async () => decodeWavMono(bytes, read.wav, decimation))}`,
  );
  if (channels === 2 && bits === 16) {
    const wavefileRuns = await timeAsync(async () => {
      const wave = new wavefile.WaveFile();
      wave.fromBuffer(bytes);
      return wave.getSamples(false, Float32Array);
    });
    console.log(`  wavefile decode:    ${wavefileRuns}`);
  }
}
