/**
 * Compares the duration `analyze` judges with what ffmpeg reports, for clips of exactly 2.95, 3, 60 and
 * 60.05 s of the committed espeak-ng speech (looped) in each compressed container. Encoders add priming and
 * padding samples; the analysis must judge the real (gapless) length the file records, so that 3.000 s and
 * 60.000 s pass and 2.95 s and 60.05 s do not. Needs ffmpeg and ffprobe on the PATH, so it is a script,
 * not a test; the tests use small committed fixtures made the same way.
 *
 *   npx tsx audio/test/measure-gapless.ts [seconds…]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { committedFixturePath } from '../../fixtures/committed.js';
import { analyze } from '../analysis/analyze.js';

const durations = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [2.95, 3, 60, 60.05];
const source = fileURLToPath(committedFixturePath('speech-espeak-wav'));
const folder = mkdtempSync(join(tmpdir(), 'voice-kit-gapless-'));

const cases = [
  ['MP3 44.1 kHz', 'mp3', ['-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '64k']],
  ['MP3 22.05 kHz', 'mp3', ['-c:a', 'libmp3lame', '-b:a', '32k']],
  ['MP3 16 kHz', 'mp3', ['-ar', '16000', '-c:a', 'libmp3lame', '-b:a', '24k']],
  ['MP3 8 kHz', 'mp3', ['-ar', '8000', '-c:a', 'libmp3lame', '-b:a', '8k']],
  ['M4A 44.1 kHz', 'm4a', ['-ar', '44100', '-c:a', 'aac', '-b:a', '64k']],
  ['M4A 16 kHz', 'm4a', ['-ar', '16000', '-c:a', 'aac', '-b:a', '24k']],
  ['Ogg Opus', 'ogg', ['-c:a', 'libopus', '-b:a', '24k']],
  ['Ogg Vorbis', 'ogg', ['-c:a', 'libvorbis', '-q:a', '1']],
  ['WebM Opus', 'webm', ['-c:a', 'libopus', '-b:a', '24k']],
] as const;

const run = (command: string, args: string[]): string =>
  execFileSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 26 });

/** Seconds ffmpeg decodes (after its own gapless trimming), counted in samples at the stream's rate. */
function ffmpegDecoded(path: string): number {
  const rate = Number(
    run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=sample_rate',
      '-of',
      'csv=p=0',
      path,
    ]),
  );
  const bytes = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-ac', '1', '-f', 's16le', '-'], {
    maxBuffer: 1 << 28,
  }).length;
  return bytes / 2 / rate;
}

try {
  for (const seconds of durations) {
    for (const [name, extension, codecArgs] of cases) {
      const path = join(folder, `clip.${extension}`);
      const input = ['-hide_banner', '-loglevel', 'error', '-y', '-stream_loop', '-1', '-i', source];
      // atrim cuts at an exact sample; -t would stop at a packet boundary of the input.
      const trim = ['-af', `atrim=duration=${seconds}`];
      execFileSync('ffmpeg', [...input, ...trim, ...codecArgs, path], { stdio: 'inherit' });
      const probed = Number(
        run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]),
      );
      const analysis = await analyze(new Uint8Array(readFileSync(path)));
      const verdict = analysis.ok ? 'accepted' : `${analysis.verdict} (${analysis.reason})`;
      const judged = analysis.durationSeconds?.toFixed(4) ?? '–';
      console.log(
        `${seconds} s ${name}: ffprobe ${probed.toFixed(4)}, ffmpeg decodes ${ffmpegDecoded(path).toFixed(4)}, analysis ${judged} → ${verdict}`,
      );
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
