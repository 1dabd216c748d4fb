import { extrapolate, growthExponent, percentile, summariseLatencies } from './stats';

describe('percentile (nearest rank)', () => {
  // Worked example of the nearest-rank method: https://en.wikipedia.org/wiki/Percentile#The_nearest-rank_method
  // (list 15, 20, 35, 40, 50: 5th → 15, 30th → 20, 40th → 20, 50th → 35, 100th → 50).
  it.each([
    [5, 15],
    [30, 20],
    [40, 20],
    [50, 35],
    [100, 50],
  ])('gives the %i-th percentile of 15, 20, 35, 40, 50 as %i', (p, expected) => {
    expect(percentile([15, 20, 35, 40, 50], p)).toBe(expected);
  });

  it('sorts numerically, not as strings, and does not reorder its input', () => {
    const input = [100, 9, 20, 3];
    expect(percentile(input, 50)).toBe(9);
    expect(percentile(input, 75)).toBe(20);
    expect(input).toEqual([100, 9, 20, 3]);
  });

  it('gives p95 and p99 of 1..1000 as 950 and 990', () => {
    const values = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    expect(percentile(values, 95)).toBe(950);
    expect(percentile(values, 99)).toBe(990);
    expect(percentile(values, 0)).toBe(1);
  });

  it('is NaN without values and rejects p outside [0, 100]', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
  });
});

describe('growth and extrapolation', () => {
  it('finds exponent 1 for linear and 2 for quadratic growth', () => {
    expect(growthExponent(1000, 2, 4000, 8)).toBeCloseTo(1, 12);
    expect(growthExponent(1000, 2, 4000, 32)).toBeCloseTo(2, 12);
    expect(growthExponent(1000, 0, 4000, 8)).toBeNaN();
  });

  it('extrapolates quadratic growth quadratically', () => {
    // y = 2e-6 · x²: 2 at 1,000, 32 at 4,000 → 20,000 at 100,000
    expect(extrapolate(1000, 2, 4000, 32, 100_000).value).toBeCloseTo(20_000, 6);
  });

  it('never extrapolates with an exponent below 1', () => {
    // 10 s at both sizes (fixed overhead): at 25× the larger size, 250 s, not 10 s
    const r = extrapolate(1000, 10, 4000, 10, 100_000);
    expect(r.exponent).toBe(1);
    expect(r.value).toBeCloseTo(250, 9);
  });

  it('summarises latencies with the request rate over the elapsed time', () => {
    const s = summariseLatencies([5, 1, 3, 2, 4], 2);
    expect(s).toEqual({ requests: 5, perSecond: 2.5, p50: 3, p95: 5, p99: 5 });
  });
});
