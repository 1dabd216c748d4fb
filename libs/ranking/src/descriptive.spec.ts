import { argsortAscending, mean, median, percentile, sampleVariance } from './descriptive';
import { kendallTau, rankDescending } from './ranks';
import { bootstrapCounts, mulberry32, shuffleInPlace } from './prng';

describe('descriptive statistics and ranks', () => {
  it('reproduces the paper Fig. 1 means (all 9.2) and medians (11, 11, 7)', () => {
    // docs/science.md §1, from BT-eval/Intuition.ipynb
    expect(mean([1, 5, 11, 12, 17])).toBeCloseTo(9.2, 14);
    expect(mean([5, 11, 12, 17, 1])).toBeCloseTo(9.2, 14);
    expect(mean([2, 6, 7, 13, 18])).toBeCloseTo(9.2, 14);
    expect(median([1, 5, 11, 12, 17])).toBe(11);
    expect(median([2, 6, 7, 13, 18])).toBe(7);
  });

  it('averages the two central values for an even count and interpolates percentiles like NumPy', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5], 2.5)).toBeCloseTo(1.1, 14); // np.percentile([1..5], 2.5)
    expect(sampleVariance([1, 2, 3, 4])).toBeCloseTo(5 / 3, 14);
  });

  it('gives tied values the same competition rank', () => {
    expect(rankDescending([0.2, 0.5, 0.5, 0.1])).toEqual([3, 1, 1, 4]);
    expect(rankDescending([1, 1 + 1e-13], 1e-12)).toEqual([1, 1]);
    expect(rankDescending([1, 1 + 1e-13], 0)).toEqual([2, 1]);
  });

  it('computes Kendall τ_b with ties (hand count: C = 2, D = 1, one tie in x of 3 pairs for the second case)', () => {
    expect(kendallTau([1, 2, 3], [1, 3, 2])).toBeCloseTo(1 / 3, 14);
    expect(kendallTau([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 14);
    // x = [1,1,2], y = [1,2,3]: pairs (1,2) tie in x, (1,3) C, (2,3) C → 2/√(2·3)
    expect(kendallTau([1, 1, 2], [1, 2, 3])).toBeCloseTo(2 / Math.sqrt(6), 14);
  });

  it('replays the same mulberry32 sequence for the same seed and draws bootstrap counts summing to n', () => {
    const a = mulberry32(12345);
    const b = mulberry32(12345);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(mulberry32(1).next()).not.toBe(mulberry32(2).next());
    const c = bootstrapCounts(1000, mulberry32(7), new Int32Array(1000));
    expect(c.reduce((s, v) => s + v, 0)).toBe(1000);
    // share of instances drawn at least once ≈ 1 − 1/e = 0.632 (± 5 sd ≈ 0.08)
    const drawn = c.filter((v) => v > 0).length / 1000;
    expect(Math.abs(drawn - (1 - 1 / Math.E))).toBeLessThan(0.08);
    const p = [1, 2, 3, 4, 5];
    shuffleInPlace(p, mulberry32(3));
    expect([...p].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('draws standard normals with mean ≈ 0 and variance ≈ 1', () => {
    const rng = mulberry32(42);
    const xs = Array.from({ length: 20000 }, () => rng.nextNormal());
    expect(Math.abs(mean(xs))).toBeLessThan(0.03); // 4 sd of the mean
    expect(Math.abs(sampleVariance(xs) - 1)).toBeLessThan(0.05);
  });
});

describe('argsortAscending', () => {
  // Reference: the engine's stable comparator sort of the indices.
  it('orders indices as a stable comparator sort does (ties, negatives, zeros, extremes)', () => {
    const rng = mulberry32(5);
    const cases = [
      Float64Array.of(3, 1, 2),
      Float64Array.of(0, -1.5, 1.5, 0, -0.25, 1e-300, -1e300, 1e300, 2, 2, -2),
      Float64Array.from({ length: 5000 }, () => rng.nextInt(20) - 10),
      Float64Array.from({ length: 5000 }, () => rng.nextNormal() * 1e6),
      Float64Array.from({ length: 3000 }, () => Math.round(rng.next() * 100) / 100),
    ];
    for (const values of cases) {
      const expected = Int32Array.from({ length: values.length }, (_, l) => l).sort((a, b) => (values[a] ?? 0) - (values[b] ?? 0));
      expect(Array.from(argsortAscending(values))).toEqual(Array.from(expected));
    }
  });
});
