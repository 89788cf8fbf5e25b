/**
 * A walk judged before the oracle knows the scope's voices (its first walk never ended): a page of
 * an unchanged list that says more follows is full, and a walk shows each voice once, whatever the
 * voices are. A walk that comes back to its first voice never ends, so without these its pages
 * were never compared.
 */
import { describe, expect, it } from 'vitest';
import { createOracle, type OracleExchange } from '../index.js';

const key = 'k';
const at = Date.UTC(2026, 0, 1);
const voice = (id: string) => ({ voice_id: id, voice_url: 'https://x.invalid/a.wav', created_at: at / 1000 });
const page = (seq: number, cursor: string | undefined, ids: string[], next?: string): OracleExchange => ({
  seq,
  at,
  request: {
    method: 'GET',
    path: `/v1/voice/list?page_size=2${cursor ? `&voice_id=${cursor}` : ''}`,
    headers: { 'x-api-key': key },
  },
  answer: {
    status: 200,
    json: {
      error_code: 0,
      error_message: '',
      succeed: true,
      data: {
        list: ids.map(voice),
        has_more: next !== undefined,
        next_voice_id: next ?? '',
        total: ids.length,
        remainingFreeCloneCount: 3,
      },
    },
  },
});

async function judged(pages: OracleExchange[]) {
  const oracle = await createOracle(
    { keys: { [key]: { organization: 'o', project: 'p', environment: 'e' } } },
    at,
  );
  const rules: string[] = [];
  for (const p of pages) rules.push(...(await oracle.observe(p)).map((v) => v.rule));
  await oracle.close();
  return rules;
}

describe('a walk of a scope the oracle does not know yet', () => {
  it('that comes back to its first voice is a finding', async () => {
    const rules = await judged([
      page(1, undefined, ['a', 'b'], 'c'),
      page(2, 'c', ['c'], 'a'),
      page(3, 'a', ['a', 'b'], 'c'),
    ]);
    expect(rules).toContain('oracle.walk-repeats');
  });

  it('with a short page that says more is a finding', async () => {
    expect(await judged([page(1, undefined, ['a'], 'b')])).toContain('oracle.page');
  });

  it('that ends, each voice once, is none', async () => {
    expect(await judged([page(1, undefined, ['a', 'b'], 'c'), page(2, 'c', ['c'])])).toEqual([]);
  });
});
