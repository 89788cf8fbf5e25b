import { describe, expect, it } from 'vitest';
import { RequestLog, type RequestLogEntry } from './request-log.js';

const entry = (at: number): RequestLogEntry => ({
  at,
  method: 'GET',
  path: '/v1/voice/list',
  key: 'mock-key',
  status: 200,
  operationId: 'listVoices',
});

describe('RequestLog', () => {
  it.each([
    [3, 2, [1, 2]],
    [3, 3, [1, 2, 3]],
    [3, 4, [2, 3, 4]],
    [3, 8, [6, 7, 8]],
    [1, 5, [5]],
    [0, 4, []],
  ])('capacity %i after %i requests keeps %j, oldest first', (capacity, added, expected) => {
    const log = new RequestLog(capacity);
    for (let at = 1; at <= added; at++) log.add(entry(at));
    expect(log.list().map((e) => e.at)).toEqual(expected);
  });

  it('starts over after clear, and hands out copies', () => {
    const log = new RequestLog(2);
    for (let at = 1; at <= 3; at++) log.add(entry(at));
    log.clear();
    log.add(entry(9));
    const listed = log.list();
    (listed[0] as RequestLogEntry).status = 500;
    expect(log.list()).toEqual([entry(9)]);
  });
});
