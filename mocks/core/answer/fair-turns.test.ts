import { describe, expect, it } from 'vitest';
import { FairTurns } from './fair-turns.js';

/**
 * Turns on a clock the renderers move by hand, whose yields are counted (each one a turn). No lull:
 * the clock stands still between turns here (the lull has its own tests below).
 */
function manualTurns(turnMs = 4, order: string[] = []) {
  const clock = { ms: 0 };
  let yields = 0;
  const turns = new FairTurns(
    // A turn begins in a later macrotask, as on the Node server ('|' in the order).
    () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          yields += 1;
          order.push('|');
          resolve();
        }),
      ),
    { sliceMs: 1, turnMs, lullMs: 0, now: () => clock.ms },
  );
  return { clock, turns, yields: () => yields, order };
}

/** Turns whose rounds of the event loop a test runs one at a time, on a clock it moves by hand. */
function steppedTurns(lull: { lullMs: number; maxLullMs: number }) {
  const clock = { ms: 0 };
  const rounds: (() => void)[] = [];
  const order: string[] = [];
  const turns = new FairTurns(() => new Promise<void>((resolve) => rounds.push(resolve)), {
    sliceMs: 1,
    turnMs: 1,
    ...lull,
    now: () => clock.ms,
  });
  /** One round of the event loop: the turn asked for runs, and what it hands out renders. */
  const round = async () => {
    rounds.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  /** A renderer of `chunks` chunks of `chunkMs` each, noting its name per chunk. */
  const render = async (name: string, chunks: number, chunkMs: number) => {
    const slice = turns.slice();
    for (let i = 0; i < chunks; i++) {
      const due = i === 0 ? slice.first() : slice.due();
      if (due) await due;
      clock.ms += chunkMs;
      order.push(name);
    }
    slice.done();
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Rounds until nobody asks for one (a bounded number: a lull the clock never ends would spin). */
  const drain = async () => {
    for (let i = 0; i < 10_000 && rounds.length > 0; i++) await round();
    expect(rounds).toHaveLength(0);
  };
  return { clock, turns, round, render, order, settle, drain };
}

/** A renderer of `chunks` chunks that each take `chunkMs` of the clock, noting its name per chunk. */
async function render(
  name: string,
  chunks: number,
  chunkMs: number,
  setup: ReturnType<typeof manualTurns>,
  order: string[],
) {
  const slice = setup.turns.slice();
  for (let i = 0; i < chunks; i++) {
    // As the sources do: a chunk whose turn it is now is made without a promise in between.
    const due = i === 0 ? slice.first() : slice.due();
    if (due) await due;
    setup.clock.ms += chunkMs;
    order.push(name);
  }
  slice.done();
}

describe('FairTurns', () => {
  it('a renderer alone yields to the event loop once per turn of work, its first chunk at once', async () => {
    const setup = manualTurns();
    const order: string[] = [];
    await render('a', 40, 0.25, setup, order);
    // Chunk 1 at once; then 39 chunks of 0.25 ms in turns of 4 ms (slices of 1 ms one after another
    // while the turn lasts): 16, 16 and 7 chunks, each turn after a yield.
    expect(order).toHaveLength(40);
    expect(setup.yields()).toBe(3);
  });

  it('renderers take turns round-robin, a slice each, in the order they came', async () => {
    const setup = manualTurns();
    const { order } = setup;
    // Each chunk is a whole slice (1 ms), four slices to a turn of 4 ms; a's first chunk at once (it
    // was alone), b's and c's first in the first turn, before a goes on; that turn served newcomers,
    // so it ends after a's one slice.
    await Promise.all(['a', 'b', 'c'].map((name) => render(name, 4, 1, setup, order)));
    expect(order.join('')).toBe('a|bca|bcab|cabc');
  });

  it('a slice longer than a turn (an mp3 chunk) is a turn of its own', async () => {
    const setup = manualTurns(4);
    const { order } = setup;
    await Promise.all(['a', 'b', 'c'].map((name) => render(name, 3, 5, setup, order)));
    // Even the newcomers' first chunks: the event loop reads its sockets between any two.
    expect(order.join('')).toBe('a|b|c|a|b|c|a|b|c');
  });

  it('newcomers make their first chunk before those already sounding go on, one chunk each', async () => {
    const setup = manualTurns();
    const { order } = setup;
    const a = render('a', 6, 1, setup, order);
    // b and c come while a renders: each first chunk goes before a's next slice.
    const late = [render('b', 3, 1, setup, order), render('c', 3, 1, setup, order)];
    await Promise.all([a, ...late]);
    expect(order.join('')).toMatch(/^a\|bca/);
    expect(order.filter((c) => c !== '|')).toHaveLength(12);
  });

  it('a turn that served newcomers ends one slice later: the rest of their burst is read sooner', async () => {
    const setup = manualTurns();
    const { order } = setup;
    // b comes while a renders; in the turn b's first chunk is made, a goes on for one slice (not for
    // the rest of the 4 ms turn), and the event loop reads its sockets, where more newcomers would wait.
    await Promise.all([render('a', 10, 1, setup, order), render('b', 1, 1, setup, order)]);
    expect(order.join('')).toBe('a|ba|aaaa|aaaa');
  });

  it('while newcomers keep coming, a lull: nobody renders until a round in which none came', async () => {
    const t = steppedTurns({ lullMs: 1, maxLullMs: 20 });
    const a = t.render('a', 40, 0.25);
    await t.settle();
    // a was alone: its first chunk at once, then it waits for a turn. b comes: a lull begins.
    const b = t.render('b', 1, 0.25);
    await t.settle();
    expect(t.order.join('')).toBe('a');
    await t.round();
    // That round read c (a newcomer came since the last turn): the turn ends at once, nobody renders.
    const c = t.render('c', 1, 0.25);
    await t.settle();
    expect(t.order.join('')).toBe('a');
    await t.round();
    expect(t.order.join('')).toBe('a');
    // A round in which nobody came: the newcomers' first chunks; a still waits.
    await t.round();
    expect(t.order.join('')).toBe('abc');
    // A round in which nobody came and no newcomer waits: the burst is in, the lull ends, a goes on
    // (long before the millisecond after the last newcomer is over).
    expect(t.clock.ms).toBeLessThan(1);
    await t.round();
    expect(t.order.join('')).toMatch(/^abca+$/);
    await t.drain();
    await Promise.all([a, b, c]);
    expect(t.order.filter((name) => name === 'a')).toHaveLength(40);
  });

  it('a lull lasts no longer than its longest, and those sounding then go on for as long', async () => {
    const t = steppedTurns({ lullMs: 1, maxLullMs: 5 });
    const a = t.render('a', 200, 0.25);
    await t.settle();
    const newcomers: Promise<void>[] = [];
    const rounds: { at: number; a: boolean }[] = [];
    // A newcomer before every round, half a millisecond apart: they keep coming for longer than a
    // lull may last (a's slices move the clock on too).
    for (let i = 0; t.clock.ms < 12; i++) {
      t.clock.ms += 0.5;
      newcomers.push(t.render(`n${i}`, 1, 0));
      await t.settle();
      const at = t.clock.ms;
      const before = t.order.length;
      await t.round();
      rounds.push({ at, a: t.order.slice(before).includes('a') });
    }
    // The lull began at 0.5 ms and ends at 5.5; from then on a goes on in every round, and a newcomer
    // begins no new lull before 10.5 ms.
    const early = rounds.filter((r) => r.at < 5.5);
    const share = rounds.filter((r) => r.at >= 5.5 && r.at < 10.5);
    expect(early.length).toBeGreaterThan(5);
    expect(early.every((r) => !r.a)).toBe(true);
    expect(share.length).toBeGreaterThan(0);
    expect(share.every((r) => r.a)).toBe(true);
    expect(rounds.find((r) => r.at >= 10.5)?.a).toBe(false);
    // Each newcomer's first chunk was made, and a ends.
    t.clock.ms += 25;
    await t.drain();
    await Promise.all([a, ...newcomers]);
    expect(t.order.filter((name) => name.startsWith('n'))).toHaveLength(newcomers.length);
  });

  it('a renderer that stops (its client went away) does not hold up the others', async () => {
    const setup = manualTurns();
    const { order } = setup;
    await Promise.all([render('a', 2, 1, setup, order), render('b', 8, 1, setup, order)]);
    expect(order.join('')).toBe('a|ba|bbbb|bbb');
    expect(setup.turns.waiting).toBe(0);
  });
});
