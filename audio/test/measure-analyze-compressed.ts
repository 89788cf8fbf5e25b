/**
 * Measures how long `analyze` takes on compressed references of the longest allowed duration (exactly
 * 60 s: the encoders' priming and padding are not counted), and how much of it is decoding. The files
 * are made with ffmpeg from the committed espeak-ng speech, looped; so this script, unlike the tests,
 * needs ffmpeg on the PATH. A script, not a test: timings depend on the machine.
 *
 *   npx tsx audio/test/measure-analyze-compressed.ts [runs]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { committedFixturePath } from '../../fixtures/committed.js';
import { analyze } from '../analysis/analyze.js';
import { decodeCompressed } from '../analysis/decode-compressed.js';
import { sniff } from '../containers/sniff.js';
import { timeAsync } from './measure-timing.js';

const runs = Number(process.argv[2] ?? 20);
const source = fileURLToPath(committedFixturePath('speech-espeak-wav'));
const folder = mkdtempSync(join(tmpdir(), 'voice-kit-measure-'));

const cases = [
  ['MP3, 22.05 kHz mono, 48 kbit/s', 'mono.mp3', ['-c:a', 'libmp3lame', '-b:a', '48k']],
  [
    'MP3, 44.1 kHz stereo, 128 kbit/s',
    'stereo.mp3',
    ['-ar', '44100', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k'],
  ],
  ['Ogg Opus, mono, 24 kbit/s', 'mono.ogg', ['-c:a', 'libopus', '-b:a', '24k']],
  ['Ogg Vorbis, 22.05 kHz mono, q1', 'vorbis.ogg', ['-c:a', 'libvorbis', '-q:a', '1']],
  ['WebM Opus, mono, 24 kbit/s', 'mono.webm', ['-c:a', 'libopus', '-b:a', '24k']],
  ['WebM Opus, stereo, 64 kbit/s', 'stereo.webm', ['-ac', '2', '-c:a', 'libopus', '-b:a', '64k']],
] as const;

try {
  for (const [name, file, codecArgs] of cases) {
    const path = join(folder, file);
    const input = ['-hide_banner', '-loglevel', 'error', '-y', '-stream_loop', '-1', '-i', source];
    execFileSync('ffmpeg', [...input, '-t', '60', ...codecArgs, path], { stdio: 'inherit' });
    const bytes = new Uint8Array(readFileSync(path));
    // The first call pays for importing the decoder module and compiling its wasm, once per process.
    const start = performance.now();
    const result = await analyze(bytes);
    const first = (performance.now() - start).toFixed(0);
    const verdict = result.ok ? `accepted, ${result.speechSeconds?.toFixed(1)} s of speech` : result.verdict;
    console.log(`${name} (${(bytes.length / 1e3).toFixed(0)} kB): ${verdict}; first call ${first} ms`);
    console.log(`  analyze:            ${await timeAsync(runs, () => analyze(bytes))}`);
    const sniffed = sniff(bytes);
    const decode = () => decodeCompressed(bytes, sniffed, { analysisRateHz: 4000, maxSeconds: 61 });
    console.log(`  decode only:        ${await timeAsync(runs, decode)}`);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
