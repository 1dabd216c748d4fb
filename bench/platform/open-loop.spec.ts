import { dueCount, reachedRate, scheduledAtMs, scheduledCount, summariseOpenLoop, type OpenLoopSample } from './open-loop';

describe('open-loop schedule', () => {
  it('schedules rate × seconds requests, 1000 / rate ms apart', () => {
    expect(scheduledCount(500, 15)).toBe(7500);
    expect(scheduledCount(500, 0.001)).toBe(1);
    expect(scheduledAtMs(0, 500)).toBe(0);
    expect(scheduledAtMs(1, 500)).toBe(2);
    expect(scheduledAtMs(7499, 500)).toBe(14_998);
    expect(() => scheduledCount(0, 15)).toThrow(RangeError);
  });

  it('counts the requests due by a time, request 0 at once, a late wake catching up', () => {
    // 500/s: one every 2 ms; at 0 ms request 0, at 1.9 ms still 1, at 2 ms 2 (0 and 1), at 10 ms 6 (0, 2, …, 10 ms).
    expect(dueCount(-1, 500, 100)).toBe(0);
    expect(dueCount(0, 500, 100)).toBe(1);
    expect(dueCount(1.9, 500, 100)).toBe(1);
    expect(dueCount(2, 500, 100)).toBe(2);
    expect(dueCount(10, 500, 100)).toBe(6);
    expect(dueCount(10_000, 500, 100)).toBe(100);
    // 3/s: slots at 0, 333.33…, 666.66… ms; exactly at the float slot time the request is due.
    expect(dueCount(scheduledAtMs(2, 3), 3, 10)).toBe(3);
  });
});

describe('open-loop summary (coordinated omission corrected)', () => {
  /** `n` requests at `rate`, each sent on time and answered `ms(i)` later. */
  const run = (n: number, rate: number, ms: (i: number) => number): OpenLoopSample[] =>
    Array.from({ length: n }, (_, i) => {
      const at = scheduledAtMs(i, rate);
      return { scheduledMs: at, sentMs: at, answeredMs: at + ms(i), ok: true };
    });

  it('counts a stall against every request scheduled during it, not only the one that met it', () => {
    // 100 requests at 100/s (10 ms apart), 1 ms each, except that the server stalls from 200 ms
    // to 700 ms: the 50 requests scheduled in [200, 700) ms are answered at 700 ms (one socket
    // each), i.e. 500, 490, …, 10 ms late. A closed loop with one client would have sent one
    // request in the stall: one slow sample out of 51.
    const samples = run(100, 100, () => 1).map((s) => (s.scheduledMs >= 200 && s.scheduledMs < 700 ? { ...s, answeredMs: 700 } : s));
    const r = summariseOpenLoop(samples, 100, 10);
    // Sorted latencies: 50 × 1 ms, then 10, 20, …, 500 ms; nearest rank p95 = 95th = 450 ms, p50 = 50th = 1 ms, p99 = 99th = 490 ms.
    expect(r.p50).toBe(1);
    expect(r.p95).toBe(450);
    expect(r.p99).toBe(490);
    expect(r.scheduled).toBe(100);
    expect(r.unanswered).toBe(0);
    expect(r.lateSends).toBe(0);
    // the stall is one gap: the last answer before it (190 + 1 ms) to the burst at 700 ms
    expect(r.longestGapMs).toBe(509);
    expect(r.longestGapAtMs).toBe(191);
  });

  it('finds no gap after the first answer in a server that is slow throughout', () => {
    const r = summariseOpenLoop(run(100, 100, () => 300), 100, 10);
    expect(r.p50).toBe(300);
    // the first answer comes 300 ms after the first request; then one every 10 ms
    expect(r.longestGapMs).toBe(300);
    expect(r.longestGapAtMs).toBe(0);
  });

  it('counts unanswered requests as infinitely slow and late or unsent ones as late', () => {
    const samples: OpenLoopSample[] = run(20, 10, () => 5);
    samples[3] = { scheduledMs: 300, sentMs: 311, answeredMs: 320, ok: true }; // sent 11 ms late
    samples[4] = { scheduledMs: 400, ok: false }; // never sent
    samples[5] = { scheduledMs: 500, sentMs: 500, ok: false }; // network error: no answer
    samples[6] = { scheduledMs: 600, sentMs: 600, answeredMs: 604, ok: false }; // a 500 answer
    const r = summariseOpenLoop(samples, 10, 10);
    expect(r.unanswered).toBe(2);
    expect(r.lateSends).toBe(2);
    expect(r.badAnswers).toBe(1);
    expect(r.requests).toBe(18);
    // 2 of 20 are +∞: p95 (19th of 20) is ∞, p50 (10th) finite.
    expect(r.p95).toBe(Infinity);
    expect(r.p50).toBe(5);
  });

  it('gives the achieved rate as good answers over the time to the last answer', () => {
    // 500 requests at 500/s: the last scheduled at 998 ms, answered 2 ms later at 1,000 ms → 500/s.
    const r = summariseOpenLoop(run(500, 500, () => 2), 500, 10);
    expect(r.achievedPerSecond).toBeCloseTo(500, 9);
    expect(r.offered).toBe(500);
    // A server that keeps up with 50 ms answers at 15 s: 7,500 / 15.048 s = 498.4/s, within 2 %.
    const slow = summariseOpenLoop(run(7500, 500, () => 50), 500, 10);
    expect(slow.achievedPerSecond).toBeCloseTo(7500 / 15.048, 6);
    expect(reachedRate(slow.achievedPerSecond, 500, 0.02)).toBe(true);
    expect(reachedRate(489, 500, 0.02)).toBe(false);
  });
});
