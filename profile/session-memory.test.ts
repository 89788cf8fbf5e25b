import { describe, expect, it } from 'vitest';
import type { SeenFacts } from './read-choice.js';
import { SessionMemory } from './session-memory.js';

const evidence = { exchange: 1, method: 'POST', path: '/v1/text-to-speech', status: 400 };

function synthesis(text: string, rest: Record<string, unknown>, status: number): SeenFacts {
  return {
    seq: 1,
    operationId: 'synthesizeSpeech',
    method: 'POST',
    path: '/v1/text-to-speech',
    query: {},
    requestHeaders: { 'x-api-key': 'k' },
    requestJson: { kind: 'json', value: { generate_text: text, ...rest } },
    form: undefined,
    status,
    responseHeaders: {},
    responseJson: {
      kind: 'json',
      value: { error_code: 10001, error_message: 'no', succeed: false, data: null },
    },
    audio: undefined,
    timing: { waitMs: 0, spanMs: 0, chunks: 1 },
  };
}

describe('the session memory stays bounded whatever the traffic', () => {
  it('keeps at most 256 kinds of request and 64 refused lengths each, and no huge request shape', () => {
    const memory = new SessionMemory();
    for (let i = 0; i < 2000; i++)
      memory.learn(synthesis('x'.repeat((i % 100) + 1), { language: `l${i}` }, 400), evidence);
    expect(memory.lengths.size).toBe(256);
    for (let i = 1; i <= 500; i++) memory.learn(synthesis('y'.repeat(i), {}, 400), evidence);
    expect(memory.lengths.size).toBe(256);
    expect([...memory.lengths.values()].at(-1)?.refused.size).toBe(64);
    memory.learn(synthesis('z', { emotion_class: 'e'.repeat(100_000) }, 400), evidence);
    expect(memory.lengths.size).toBe(256);
    expect([...memory.lengths.keys()].every((k) => k.length < 2000)).toBe(true);
  });
});
