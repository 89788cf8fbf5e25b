import { describe, expect, it } from 'vitest';
import { FairTurns } from './fair-turns.js';

/** Turns on a clock the renderers move by hand, whose yields are counted (each one a turn). */
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
    { sliceMs: 1, turnMs, now: () => clock.ms },
  );
  return { clock, turns, yields: () => yields, order };
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

  it('newcomers make their first chunk before those already streaming go on, one chunk each', async () => {
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

  it('a renderer that stops (its client went away) does not hold up the others', async () => {
    const setup = manualTurns();
    const { order } = setup;
    await Promise.all([render('a', 2, 1, setup, order), render('b', 8, 1, setup, order)]);
    expect(order.join('')).toBe('a|ba|bbbb|bbb');
    expect(setup.turns.waiting).toBe(0);
  });
});
