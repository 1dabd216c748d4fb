import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('lets exactly `limit` requests through per window and says how long to wait after', () => {
    let t = 0;
    const limiter = new RateLimiter(3, 60_000, () => t);
    expect([1, 2, 3].map(() => limiter.hit('a'))).toEqual([0, 0, 0]);
    t = 15_000;
    expect(limiter.hit('a')).toBe(45);
    expect(limiter.hit('b')).toBe(0);
    t = 60_000;
    expect(limiter.hit('a')).toBe(0);
  });
  it('never limits when the limit is 0', () => {
    const limiter = new RateLimiter(0, 1000);
    for (let i = 0; i < 100; i++) expect(limiter.hit('a')).toBe(0);
  });
});
