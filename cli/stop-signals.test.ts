import { EventEmitter } from 'node:events';
import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onStopSignals, type SignalSource, type StopSignal, writeNow } from './stop-signals.js';

/** A signal source, a clock and an exit the test drives. */
function harness() {
  const source = new EventEmitter() as EventEmitter & SignalSource;
  let now = 0;
  const calls: string[] = [];
  const stopListening = onStopSignals(
    { finish: (signal) => calls.push(`finish ${signal}`), now: () => calls.push('now') },
    { source, clock: () => now, exit: (code) => calls.push(`exit ${code}`) },
  );
  const send = (signal: StopSignal, at: number) => {
    now = at;
    source.emit(signal);
  };
  return { calls, send, stopListening, source };
}

describe('the stop policy', () => {
  it('the first signal asks to finish; a repeat within a second is the same request', () => {
    const { calls, send } = harness();
    send('SIGINT', 0);
    send('SIGINT', 50);
    send('SIGTERM', 400); // npm start's parent watch turns a lost parent into a SIGTERM
    send('SIGINT', 999);
    expect(calls).toEqual(['finish SIGINT']);
  });

  it('a signal a second or more later writes what was judged, then exits 130, once', () => {
    const { calls, send } = harness();
    send('SIGTERM', 0);
    send('SIGTERM', 1500);
    send('SIGINT', 1600);
    expect(calls).toEqual(['finish SIGTERM', 'now', 'exit 130']);
  });

  it('stops listening when told', () => {
    const { calls, send, stopListening, source } = harness();
    stopListening();
    send('SIGINT', 0);
    expect(calls).toEqual([]);
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });

  it('after finishing within the window, swallows the repeats until the window closes, then stops listening', () => {
    const source = new EventEmitter() as EventEmitter & SignalSource;
    let now = 0;
    const calls: string[] = [];
    const timers: Array<{ ms: number; fn: () => void }> = [];
    const stopListening = onStopSignals(
      { finish: () => calls.push('finish'), now: () => calls.push('now') },
      {
        source,
        clock: () => now,
        exit: (code) => calls.push(`exit ${code}`),
        later: (ms, fn) => timers.push({ ms, fn }),
      },
    );
    source.emit('SIGINT');
    now = 30; // the mock closed in 30 ms
    stopListening();
    now = 50; // npm's forwarded copy
    source.emit('SIGINT');
    expect(source.listenerCount('SIGINT')).toBe(1); // still there: no default action kills the process
    expect(calls).toEqual(['finish']);
    expect(timers.map((t) => t.ms)).toEqual([970]);
    timers[0]?.fn();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });

  it('exits 130 even when writing what was judged throws', () => {
    const source = new EventEmitter() as EventEmitter & SignalSource;
    const exits: number[] = [];
    let now = 0;
    onStopSignals(
      {
        finish: () => {},
        now: () => {
          throw new Error('disk full');
        },
      },
      { source, clock: () => now, exit: (code) => exits.push(code) },
    );
    source.emit('SIGINT');
    now = 2000;
    expect(() => source.emit('SIGINT')).toThrow('disk full');
    expect(exits).toEqual([130]);
  });
});

describe('writeNow', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('writes each file through a rename and refuses a link at a report’s name (its target untouched)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vk-stop-'));
    dirs.push(dir);
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'keep');
    await symlink(victim, join(dir, 'proxy.md'));
    const written = writeNow(dir, [
      ['proxy.json', '{}\n'],
      ['proxy.md', '# report\n'],
    ]);
    expect(written).toEqual([join(dir, 'proxy.json')]);
    expect(await readFile(victim, 'utf8')).toBe('keep');
    expect((await lstat(join(dir, 'proxy.md'))).isSymbolicLink()).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['proxy.json', 'proxy.md', 'victim.txt']);
  });

  it('creates the report folder, and skips a file it cannot write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vk-stop-'));
    dirs.push(dir);
    expect(writeNow(join(dir, 'a', 'b'), [['a.json', '{}']])).toEqual([join(dir, 'a', 'b', 'a.json')]);
    await writeFile(join(dir, 'file'), 'x');
    expect(writeNow(join(dir, 'file', 'x'), [['a.json', '{}']])).toEqual([]);
  });
});
