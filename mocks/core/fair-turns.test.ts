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
    if (i > 0) await slice.due();
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
    // Each chunk is a whole slice (1 ms), four slices to a turn of 4 ms.
    await Promise.all(['a', 'b', 'c'].map((name) => render(name, 4, 1, setup, order)));
    expect(order.join('')).toBe('abc|abca|bcab|c');
  });

  it('a slice longer than a turn (an mp3 chunk) is a turn of its own', async () => {
    const setup = manualTurns(4);
    const { order } = setup;
    await Promise.all(['a', 'b', 'c'].map((name) => render(name, 3, 5, setup, order)));
    expect(order.join('')).toBe('abc|a|b|c|a|b|c');
  });

  it('a renderer that stops (its client went away) does not hold up the others', async () => {
    const setup = manualTurns();
    const { order } = setup;
    await Promise.all([render('a', 2, 1, setup, order), render('b', 8, 1, setup, order)]);
    expect(order.join('')).toBe('ab|abbb|bbbb');
    expect(setup.turns.waiting).toBe(0);
  });
});
