import { describe, expect, it } from 'vitest';
import { UploadRateLimiter } from './rate-limit.js';

const hour = 3_600_000;

describe('UploadRateLimiter', () => {
  it('allows N per sliding window and frees a slot when the oldest leaves it', () => {
    const limiter = new UploadRateLimiter(2, hour);
    limiter.take('u', 0)?.commit(0);
    limiter.take('u', 1000)?.commit(1000);
    expect(limiter.take('u', 2000)).toBeUndefined();
    expect(limiter.retryAfterSeconds('u', 2000)).toBe(3598);
    expect(limiter.retryAfterSeconds('nobody', 2000)).toBe(1); // never 0: "retry now" is no advice
    expect(limiter.take('other', 2000)).toBeDefined();
    expect(limiter.take('u', hour)).toBeDefined();
  });

  it('holds a slot while in flight and gives it back on release', () => {
    const limiter = new UploadRateLimiter(1, hour);
    const ticket = limiter.take('u', 0);
    expect(limiter.take('u', 0)).toBeUndefined();
    ticket?.release();
    ticket?.release(); // settling twice must not free a second slot
    expect(limiter.take('u', 0)).toBeDefined();
    expect(limiter.take('u', 0)).toBeUndefined();
  });

  it('survives a snapshot round trip', () => {
    const limiter = new UploadRateLimiter(1, hour);
    limiter.take('u', 5)?.commit(5);
    const copy = new UploadRateLimiter(1, hour);
    copy.restore(JSON.parse(JSON.stringify(limiter.snapshot())));
    expect(copy.take('u', 10)).toBeUndefined();
  });
});
