import { LoginThrottle } from './login-throttle';

/** A throttle on a hand-moved clock (no timers: every wait below is computed, not slept). */
function throttle(free = 5, maxDelay = 900) {
  let now = 1_000_000;
  const t = new LoginThrottle(free, maxDelay, 86_400, () => now);
  return { t, advance: (ms: number) => (now += ms) };
}

describe('LoginThrottle', () => {
  it('lets `free` failures through without a wait, then waits 1, 2, 4 … s after each further failure', () => {
    const { t } = throttle(3);
    for (let i = 0; i < 3; i++) {
      expect(t.wait('a')).toBe(0);
      t.fail('a');
    }
    // 3 failures = free: 2^0 = 1 s; each further failure doubles it (2^(count − free)).
    expect(t.wait('a')).toBe(1);
    expect([3, 4, 5, 6].map((n) => t.delaySeconds(n))).toEqual([1, 2, 4, 8]);
  });

  it('allows the next try once the wait has passed, and the wait after it is twice as long', () => {
    const { t, advance } = throttle(1);
    t.fail('a');
    expect(t.wait('a')).toBe(1);
    advance(1000);
    expect(t.wait('a')).toBe(0);
    t.fail('a');
    expect(t.wait('a')).toBe(2);
  });

  it('caps the wait at maxDelaySeconds', () => {
    const { t } = throttle(1, 60);
    for (let i = 0; i < 40; i++) t.fail('a');
    expect(t.wait('a')).toBe(60);
    expect(t.delaySeconds(1000)).toBe(60);
  });

  it('keeps keys apart, clears an account on success, and takes back one counted try on forgive', () => {
    const { t } = throttle(2);
    t.fail('a');
    t.fail('a');
    expect(t.wait('a')).toBe(1);
    expect(t.wait('b')).toBe(0);
    t.succeed('a');
    expect(t.wait('a')).toBe(0);
    t.fail('c');
    t.fail('c');
    t.forgive('c');
    expect(t.wait('c')).toBe(0);
  });

  it('forgets failures a day after the last one', () => {
    const { t, advance } = throttle(1);
    for (let i = 0; i < 5; i++) t.fail('a');
    advance(86_400_000);
    expect(t.wait('a')).toBe(0);
    t.fail('a');
    expect(t.wait('a')).toBe(1);
  });
});
