import { describe, expect, it } from 'vitest';
import { roundOrder } from '../http-bench.js';
import { cpuMsOf } from '../servers.js';

describe("the list section's rounds", () => {
  it('run the mock and the bare server side by side, each first in turn, Prism last', () => {
    expect(roundOrder(1, 'mock', 'bare', 'prism')).toEqual(['mock', 'bare', 'prism']);
    expect(roundOrder(2, 'mock', 'bare', 'prism')).toEqual(['bare', 'mock', 'prism']);
    expect(roundOrder(3, 'mock', 'bare', 'prism')).toEqual(['mock', 'bare', 'prism']);
  });

  it.runIf(process.platform === 'linux')("read a server's CPU time from /proc, growing with work", () => {
    const before = cpuMsOf(process.pid) as number;
    let spin = 0;
    const until = performance.now() + 60;
    while (performance.now() < until) spin++;
    expect(spin).toBeGreaterThan(0);
    expect(cpuMsOf(process.pid)).toBeGreaterThan(before);
    expect(cpuMsOf(2 ** 30)).toBeUndefined();
  });
});
