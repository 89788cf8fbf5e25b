import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

// Checks that the bench runs and reports its targets; judges no number (no timing assertions).
describe('npm run bench -- --smoke', () => {
  it('runs the engine sections and prints a line per target', async () => {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/bench/run.ts', '--smoke', '--only', 'synthesis,analysis'],
        { cwd: root },
        (_error, out) => resolve({ code: child.exitCode, stdout: out }),
      );
    });
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
});
