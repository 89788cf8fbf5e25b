import { describe, expect, it } from 'vitest';
import { createJudge } from '../judge/judge.js';
import { ExchangeObserver } from './exchange.js';
import { budgetNote, JudgeBudget } from './judge-budget.js';

const body = (bytes: number) => Buffer.from(`{"generate_text":"${'a'.repeat(bytes - 20)}"}`);
const headers = { 'content-type': 'application/json', 'x-api-key': 'k' };

/** An exchange of synthesis whose request body is `bytes`, fed in 64 KiB chunks, its request ended. */
function exchange(id: number, bytes: number, budget: JudgeBudget): ExchangeObserver {
  const ex = new ExchangeObserver(id, 'POST', '/v1/text-to-speech', headers, {
    jsonLimitBytes: 2 * 1024 * 1024,
    budget,
    judge: createJudge(),
  });
  const b = body(bytes);
  for (let at = 0; at < b.length; at += 65536) ex.requestChunk(b.subarray(at, at + 65536));
  ex.requestEnd();
  return ex;
}

describe('the in-flight budget', () => {
  it('takes only what fits, and gives back', () => {
    const budget = new JudgeBudget(100);
    expect(budget.take(60)).toBe(true);
    expect(budget.take(41)).toBe(false);
    expect(budget.inUse).toBe(60);
    budget.give(60);
    expect(budget.take(100)).toBe(true);
  });

  it('a body that finds no room passes unjudged, noted, never a violation; the bytes come back whatever the end', () => {
    const budget = new JudgeBudget(3 * 1024 * 1024);
    const first = exchange(1, 2 * 1024 * 1024 - 100, budget);
    expect(budget.inUse).toBe(2 * 1024 * 1024 - 100);
    const second = exchange(2, 2 * 1024 * 1024 - 100, budget);
    expect(budget.inUse).toBe(2 * 1024 * 1024 - 100); // the second kept nothing: no room for all of it
    second.responseHead(400, { 'content-type': 'application/json' });
    second.responseChunk(
      Buffer.from('{"error_code":10001,"error_message":"refused","succeed":false,"data":null}'),
    );
    expect(second.end()).toEqual([]);
    expect(second.record.notes).toContain(`the request body: ${budgetNote}`);
    expect(second.record.requestProblems).toEqual([]);
    // The first is cut by its client before any answer: its bytes are given back all the same.
    expect(first.end('client')).toEqual([]);
    expect(budget.inUse).toBe(0);
    // With room again, the next body is kept and judged.
    const third = exchange(3, 2 * 1024 * 1024 - 100, budget);
    third.responseHead(400, { 'content-type': 'application/json' });
    expect(budget.inUse).toBe(2 * 1024 * 1024 - 100);
    third.end();
    expect(third.record.notes).toEqual([]);
    expect(budget.inUse).toBe(0);
  });
});
