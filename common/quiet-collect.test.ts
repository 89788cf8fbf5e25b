import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectWhenQuiet, type Readings } from './quiet-collect.js';

const MiB = 1024 * 1024;

/** Readings a test sets by hand: CPU used, heap and resident size as of now, and a clock that moves a second a check. */
function manual() {
  const state = { cpuMs: 0, heap: 40 * MiB, rss: 120 * MiB, at: 0 };
  const readings: Readings = {
    cpuMicros: () => state.cpuMs * 1000,
    heapBytes: () => state.heap,
    rssBytes: () => state.rss,
    nowMs: () => state.at,
  };
  /** One second passes, `busyMs` of it on the CPU, then the collector checks. */
  const second = (busyMs: number, quiet: { check(): void }) => {
    state.at += 1000;
    state.cpuMs += busyMs;
    quiet.check();
  };
  return { state, readings, second };
}

describe('collectWhenQuiet', () => {
  it('collects once, after ten quiet seconds, when the heap grew during a load', () => {
    const { state, readings, second } = manual();
    const runs: unknown[] = [];
    const quiet = collectWhenQuiet({
      readings,
      collect: (options) => {
        runs.push(options);
        state.heap = 42 * MiB;
      },
    });
    quiet.stop();
    second(0, quiet); // quiet at 40 MiB: the baseline
    state.heap = 140 * MiB;
    for (let i = 0; i < 5; i++) second(900, quiet); // a load: never a collection while busy
    expect(runs).toHaveLength(0);
    for (let i = 0; i < 9; i++) second(5, quiet); // nine quiet seconds after it
    expect(runs).toHaveLength(0);
    second(5, quiet); // the tenth: the heap gives its pages back
    // A regular full collection: V8's last-resort one left every node:http server slower for good.
    expect(runs).toEqual([{ type: 'major', execution: 'sync' }]);
    for (let i = 0; i < 5; i++) second(0, quiet); // nothing grew since: no other
    expect(quiet.collections).toBe(1);
  });

  it('collects when the resident memory grew though the heap did not (buffers outside it)', () => {
    const { state, readings, second } = manual();
    let runs = 0;
    const quiet = collectWhenQuiet({
      readings,
      collect: () => {
        runs++;
        state.rss = 130 * MiB;
      },
      quietChecks: 2,
    });
    quiet.stop();
    second(0, quiet);
    state.rss = 200 * MiB;
    second(500, quiet);
    second(0, quiet);
    expect(runs).toBe(0);
    second(0, quiet);
    expect(runs).toBe(1);
    // Its baseline is what the collection left: no other until it grows again.
    for (let i = 0; i < 4; i++) second(0, quiet);
    expect(runs).toBe(1);
    state.rss = 147 * MiB;
    second(0, quiet);
    expect(runs).toBe(2);
  });

  it('leaves a heap and a resident size that did not grow, or grew less than 16 MiB, alone', () => {
    const { state, readings, second } = manual();
    let runs = 0;
    const quiet = collectWhenQuiet({ readings, collect: () => runs++, quietChecks: 2 });
    quiet.stop();
    for (let i = 0; i < 4; i++) second(0, quiet);
    state.heap += 15 * MiB;
    state.rss += 15 * MiB;
    for (let i = 0; i < 4; i++) second(0, quiet);
    expect(runs).toBe(0);
    state.heap += 2 * MiB;
    second(0, quiet);
    expect(runs).toBe(1);
  });

  it('counts a second with 2 % or more of a core as busy', () => {
    const { state, readings, second } = manual();
    let runs = 0;
    const quiet = collectWhenQuiet({ readings, collect: () => runs++, quietChecks: 2 });
    quiet.stop();
    second(0, quiet);
    state.heap = 100 * MiB;
    // Busy and quiet seconds in turn: never two quiet ones in a row.
    for (let i = 0; i < 6; i++) second(i % 2 === 0 ? 25 : 0, quiet);
    expect(runs).toBe(0);
    second(19, quiet);
    expect(runs).toBe(1);
  });

  it('does nothing where V8 gives no collector', () => {
    const { state, readings, second } = manual();
    const quiet = collectWhenQuiet({ readings, collect: null });
    second(0, quiet);
    state.heap = 200 * MiB;
    second(0, quiet);
    second(0, quiet);
    expect(quiet.collections).toBe(0);
    quiet.stop();
  });

  // A process of its own, started with --expose-gc as `npm start` starts the mock's: a load that leaves garbage behind, then quiet.
  // It judges the heap less its young generation: V8 shrinks the young generation in a collection only
  // when allocation has been low for seconds (it does after the mock's ten quiet seconds), and this test
  // waits 0.2 s, so the young generation kept its 64 or 128 MiB in a third of the runs; the old
  // generation, where the load's garbage lives, is emptied by the collection whatever the rate.
  it("gives V8's heap pages back in a real process once it is quiet", { timeout: 90_000 }, async () => {
    const moduleUrl = new URL('./quiet-collect.ts', import.meta.url).href;
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      const { collectWhenQuiet } = await import(${JSON.stringify(moduleUrl)});
      const heap = () =>
        getHeapSpaceStatistics().reduce((sum, s) => (s.space_name === 'new_space' ? sum : sum + s.space_size), 0);
      const quiet = collectWhenQuiet({ everyMs: 100, quietChecks: 2 });
      let keep = [];
      for (let round = 0; round < 40; round++) {
        for (let i = 0; i < 50000; i++) keep.push({ round, i, pair: [i, round] });
        if (keep.length > 400000) keep = keep.slice(200000);
      }
      keep = null;
      const loaded = heap();
      const until = performance.now() + 10000;
      while (quiet.collections === 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
      quiet.stop();
      process.stdout.write(JSON.stringify({ loaded, after: heap(), collections: quiet.collections }));
    `;
    const out = await new Promise<{ loaded: number; after: number; collections: number }>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: fileURLToPath(new URL('..', import.meta.url)) },
        (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
      ),
    );
    expect(out.collections).toBe(1);
    // The load grew the old generation by tens of MiB (57–263 MiB in 30 runs here); the collection
    // left 8–11 MiB of it.
    expect(out.loaded).toBeGreaterThan(32 * MiB);
    expect(out.after).toBeLessThan(out.loaded / 3);
  });

  it('without --expose-gc runs no collection and exposes no gc', { timeout: 90_000 }, async () => {
    const moduleUrl = new URL('./quiet-collect.ts', import.meta.url).href;
    const script = `
      import { runInNewContext } from 'node:vm';
      const { collectWhenQuiet } = await import(${JSON.stringify(moduleUrl)});
      const quiet = collectWhenQuiet({ everyMs: 20, quietChecks: 2, grownBytes: 1 });
      let keep = [];
      for (let i = 0; i < 200000; i++) keep.push({ i });
      keep = null;
      await new Promise((r) => setTimeout(r, 300));
      quiet.stop();
      process.stdout.write(JSON.stringify({ collections: quiet.collections, gc: runInNewContext('typeof gc') }));
    `;
    const out = await new Promise<{ collections: number; gc: string }>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: fileURLToPath(new URL('..', import.meta.url)) },
        (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
      ),
    );
    expect(out).toEqual({ collections: 0, gc: 'undefined' });
  });
});
