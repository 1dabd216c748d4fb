import { defined } from '../../../test/support/defined';
import { pairedTTest } from './paired-tests';
import { mulberry32 } from './prng';
import { approximateRandomization, approximateRandomizationCorpus, pairedBootstrap, pairedBootstrapCorpus } from './resampling';

function noisy(n: number, shift: number, seed: number): number[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, () => rng.nextNormal() + shift);
}

describe('resampling tests', () => {
  const base = noisy(300, 0, 1);
  const better = base.map((x, i) => x + 0.5 + 0.1 * Math.sin(i));
  const same = base.map((x, i) => x + (i % 2 === 0 ? 0.01 : -0.01));

  it('gives the smallest attainable p, 1/(R+1),, when one system is better on every instance', () => {
    expect(pairedBootstrap(better, base, { resamples: 999 }).p).toBeCloseTo(1 / 1000, 12);
    expect(approximateRandomization(better, base, { resamples: 999 }).p).toBeCloseTo(1 / 1000, 12);
  });

  it('does not reject for two systems that differ by symmetric noise only', () => {
    expect(pairedBootstrap(same, base, { resamples: 999 }).p).toBeGreaterThan(0.2);
    expect(approximateRandomization(same, base, { resamples: 999 }).p).toBeGreaterThan(0.2);
  });

  it('gives p = 1 for a system compared with itself (ties count as at least as extreme)', () => {
    expect(pairedBootstrap(base, base).p).toBe(1);
    expect(approximateRandomization(base, base).p).toBe(1);
  });

  it('is reproducible for a seed and changes with the seed', () => {
    const a = noisy(50, 0.1, 3);
    const b = noisy(50, 0, 4);
    expect(pairedBootstrap(a, b, { seed: 5 })).toEqual(pairedBootstrap(a, b, { seed: 5 }));
    expect(approximateRandomization(a, b, { seed: 5 }).p).not.toBe(approximateRandomization(a, b, { seed: 6 }).p);
  });

  it('gives AR p-values close to the paired t-test for normal data (both test mean differences)', () => {
    // d ~ N(0.15, 1.0), n = 300: t ≈ 2.6 → p ≈ 0.01; AR with 4,999 trials agrees within ±0.02
    const a = noisy(300, 0.15, 10);
    const b = noisy(300, 0, 11);
    const t = pairedTTest(a, b).p;
    const ar = approximateRandomization(a, b, { resamples: 4999 }).p;
    expect(Math.abs(ar - t)).toBeLessThan(0.02 + 0.5 * t);
  });

  it('equals the mean-score tests when the corpus score is the mean of one per-instance statistic', () => {
    const a = noisy(80, 0.2, 7);
    const b = noisy(80, 0, 8);
    const statsA = a.map((x) => [x, 1]);
    const statsB = b.map((x) => [x, 1]);
    const meanOfStats = (rows: number[][]): number => defined(rows[0]?.[0], 'stat 0') / defined(rows[0]?.[1], 'stat 1');
    expect(pairedBootstrapCorpus(statsA, statsB, meanOfStats, { seed: 3 }).p).toBeCloseTo(pairedBootstrap(a, b, { seed: 3 }).p, 12);
    expect(approximateRandomizationCorpus(statsA, statsB, meanOfStats, { seed: 3 }).p).toBeCloseTo(approximateRandomization(a, b, { seed: 3 }).p, 12);
  });

  it('tests a ratio-of-sums corpus score (BLEU-like precision) via summed statistics', () => {
    // precision = Σ matches / Σ length: system A matches 8 of 10 tokens everywhere, B 5 of 10
    const A = Array.from({ length: 40 }, () => [8, 10]);
    const B = Array.from({ length: 40 }, () => [5, 10]);
    const precision = (rows: number[][]): number => defined(rows[0]?.[0], 'stat 0') / defined(rows[0]?.[1], 'stat 1');
    const r = pairedBootstrapCorpus(A, B, precision, { resamples: 199 });
    expect(r.observed).toBeCloseTo(0.3, 12);
    expect(approximateRandomizationCorpus(A, B, precision, { resamples: 199 }).p).toBeCloseTo(1 / 200, 12);
  });
});
