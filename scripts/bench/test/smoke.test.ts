import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs `scripts/bench/run.ts --smoke --only <sections>`: its exit code and what it printed. */
const smokeRun = (sections: string) =>
  new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/bench/run.ts', '--smoke', '--only', sections],
      { cwd: root },
      (_error, out) => resolve({ code: child.exitCode, stdout: out }),
    );
  });

// The sections that start the built mock (and Prism) as processes and load it take minutes on two
// cores, longer than the rest of the suite: they run when VOICE_KIT_BENCH_SMOKE=1 (docs/development.md).
const serverSections = process.env.VOICE_KIT_BENCH_SMOKE === '1';
const serverSection = it.runIf(serverSections);

// Checks that the bench runs and reports its targets; judges no number (no timing assertions).
describe('npm run bench -- --smoke', () => {
  it('runs the engine sections and prints a line per target', async () => {
    const { code, stdout } = await smokeRun('synthesis,analysis');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^voice-kit bench on .+\[smoke\]$/m);
    expect(stdout).toMatch(/^wav +[\d.]+ s of audio in [\d.]+ ms CPU = \d+× real time$/m);
    expect(stdout).toMatch(/^(met {3}|MISSED) synthesis: wav ≥ 1000× real time: \d+×$/m);
    expect(stdout).toMatch(/^(met {3}|MISSED) analysis: 60 s WAV well under 50 ms: [\d.]+ ms$/m);
    if (process.platform === 'linux') {
      expect(stdout).toMatch(/^\(steal: [\d.]+ % of the machine's CPU time during this section\)$/m);
      expect(stdout).toMatch(/^steal per section \(.+\): synthesis [\d.]+ %, analysis [\d.]+ %$/m);
    }
  });

  it('runs the mp3 section: first chunks side by side, and where a whole stream goes', async () => {
    const { code, stdout } = await smokeRun('mp3');
    expect(code).toBe(0);
    for (const way of ['wav', 'mp3 as main', 'mp3 now'])
      expect(stdout).toMatch(new RegExp(`^${way} +[\\d.]+ +[\\d. ]+ \\d+$`, 'm'));
    expect(stdout).toMatch(/^mp3 now \/ as main [\d.]+; mp3 now \/ wav [\d.]+$/m);
    expect(stdout).toMatch(
      /^rendering is [\d.]+ % of an mp3 stream's CPU, the encoder \(lamejs\) the rest$/m,
    );
    expect(stdout).toMatch(/^(met {3}|MISSED) mp3: first chunk of 3 streams at once ≤ ½ of main's/m);
    expect(stdout).toMatch(/^(met {3}|MISSED) mp3: a whole stream costs no more CPU than as main/m);
  });

  // The section spawns the built mock (dist/, built first as `npm run bench` does), and reads /proc.
  it.runIf(serverSections && process.platform === 'linux')(
    'runs the complete-audio section and prints its peak RSS growth and target',
    async () => {
      await new Promise<void>((resolve, reject) =>
        execFile(process.execPath, ['scripts/ensure-built.mjs'], { cwd: root }, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
      expect(existsSync(`${root}dist/bin/voice-kit.js`)).toBe(true);
      const { code, stdout } = await smokeRun('complete');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^## Complete audio \(2 at once × 1,000 characters at speed 0\.25, WAV, .+\)$/m);
      expect(stdout).toMatch(/^fast +[\d.]+ +[\d.]+ +every answer +false +\d+–\d+ +[\d.]+ +[\d.]+$/m);
      expect(stdout).toMatch(/^slow +[\d.]+ +[\d.]+ +every answer +false +\d+–\d+ +[\d.]+ +[\d.]+$/m);
      expect(stdout).toMatch(
        /^(met {3}|MISSED) complete: peak RSS growth ≤ 160 MB for 2 × 1,000 characters at 0\.25, fast and slow readers: fast [+-][\d.]+ MB, slow [+-][\d.]+ MB$/m,
      );
    },
  );

  // Spawns the built mock once; its stream clients run as processes of their own.
  serverSection(
    'runs the fairness section and prints a row and three targets per format',
    async () => {
      await new Promise<void>((resolve, reject) =>
        execFile(process.execPath, ['scripts/ensure-built.mjs'], { cwd: root }, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
      const { code, stdout } = await smokeRun('fairness');
      expect(code).toBe(0);
      for (const format of ['wav', 'pcm', 'mp3']) {
        expect(stdout).toMatch(
          // first byte as the client saw it, the mock's own (request log), the floor (bare node:http)
          new RegExp(
            `^${format} +\\d+ +[\\d.]+ +[\\d.]+ / [\\d.]+ +[\\d.]+ / [\\d.]+ +[\\d.]+ / [\\d.]+ +[\\d.]+ +[\\d.]+ +\\d+ %`,
            'm',
          ),
        );
        expect(stdout).toMatch(
          new RegExp(
            `^(met {3}|MISSED) fairness ${format}, 3 × [\\d,]+ characters: first byte p50 ≤ 50 ms`,
            'm',
          ),
        );
        expect(stdout).toMatch(
          new RegExp(`^(met {3}|MISSED) fairness ${format}, .+: synthesis rate at once`, 'm'),
        );
        expect(stdout).toMatch(
          new RegExp(`^(met {3}|MISSED) fairness ${format}, .+: a list during the load`, 'm'),
        );
      }
      expect(stdout).toMatch(
        /^20 WAV streams of 300 characters at once, each cut after its first bytes \(20 had them\)/m,
      );
      expect(stdout).toMatch(/; heap kept after a full collection: -?[\d.]+ MB$/m);
      expect(stdout).toMatch(
        /^(met {3}|MISSED) fairness: 20 streams cut mid-way, heap kept after a full collection ≤ 20 MB/m,
      );
    },
    120_000,
  );

  // Spawns the built mock twice, in memory and on a state dir, and compares them.
  serverSection('runs the persist section and prints saves per second and both targets', async () => {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['scripts/ensure-built.mjs'], { cwd: root }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    const { code, stdout } = await smokeRun('persist');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^voice saves\/s, 8 at a time: memory \d+, state dir \d+$/m);
    expect(stdout).toMatch(
      /^(met {3}|MISSED) persist: list with a state dir ≥ 90 % of in memory: [\d.]+ %$/m,
    );
    expect(stdout).toMatch(
      /^(met {3}|MISSED) persist: synthesis \(50 connections\) with a state dir ≥ 90 % of in memory: [\d.]+ %$/m,
    );
  });

  // Spawns the built mock with --expose-gc and reads its memory after a full GC.
  serverSection('runs the keyless section and prints what clients made the mock keep', async () => {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['scripts/ensure-built.mjs'], { cwd: root }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    const { code, stdout } = await smokeRun('keyless');
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^256 keyless GETs, 15,000-character paths, 64 Hosts: statuses \{"404":256\}; RSS [\d.]+ MB before, [+-][\d.]+ MB after; heap [+-][\d.]+ MB$/m,
    );
    expect(stdout).toMatch(
      /^(met {3}|MISSED) keyless: 10 held 1 MiB JSON bodies keep ≤ 160 MB of RSS: [+-][\d.]+ MB$/m,
    );
  });

  // Spawns the built mock, Prism and the bare server: two short rounds.
  serverSection(
    'runs the list section and prints its medians, the CPU per request and its target',
    async () => {
      await new Promise<void>((resolve, reject) =>
        execFile(process.execPath, ['scripts/ensure-built.mjs'], { cwd: root }, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
      const { code, stdout } = await smokeRun('list');
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /^mock \/ bare = [\d.]+ % {3}mock \/ prism = [\d.]+× {3}bare \/ prism = [\d.]+× /m,
      );
      expect(stdout).toMatch(
        /^CPU per request \(medians\): mock [\d.]+ µs, bare [\d.]+ µs: bare \/ mock = [\d.]+ %/m,
      );
      expect(stdout).not.toMatch(/of bare node:http \(median of the rounds\)/);
      expect(stdout).toMatch(
        /^(met {3}|MISSED) list: mock ≥ 10× Prism \(median of the rounds\): [\d.]+× \(bare node:http: [\d.]+×\)$/m,
      );
    },
  );
});
