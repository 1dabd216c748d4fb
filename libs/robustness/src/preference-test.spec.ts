import type { MenliRow } from './menli-suite';
import { menliPreferenceRows, preferenceReport, runPreferenceTest } from './preference-test';
import type { PairScorer, PreferenceRow } from './preference-test';
import { defined } from '../../../test/support/defined';

const row = (id: string, phenomenon: string, good: string, bad: string): PreferenceRow => ({
  id,
  phenomenon,
  anchor: 'the cat sat',
  good,
  bad,
});

/** Fake metric: count of anchor words present in the hypothesis. */
const overlapScorer: PairScorer = async (anchors, hyps) => ({
  values: hyps.map((h, i) => defined(anchors[i]).split(' ').filter((w) => h.split(' ').includes(w)).length),
  signature: 'overlap|test',
  higherIsBetter: true,
});

describe('runPreferenceTest', () => {
  const rows = [
    row('1', 'num', 'the cat sat', 'a dog sat'), // 3 vs 1: pass
    row('2', 'num', 'the cat', 'the cat'), // tie: fail
    row('3', 'neg', 'a cat sat', 'the cat sat'), // 2 vs 3: fail
    row('4', 'neg', 'the cat sat', 'the'), // pass
    row('5', 'neg', 'cat sat', 'dog'), // pass
  ];

  it('counts a row as passed only when good scores strictly higher, so ties fail', async () => {
    const report = await runPreferenceTest(rows, overlapScorer, { resamples: 200 });
    expect(report.phenomena.num).toMatchObject({ accuracy: 0.5, n: 2, passed: 1 });
    expect(report.phenomena.neg).toMatchObject({ accuracy: 2 / 3, n: 3, passed: 2 });
    expect(report.failing.map((f) => f.id)).toEqual(['2', '3']);
    expect(report.failing[0]).toMatchObject({ goodScore: 2, badScore: 2 });
  });

  it('reports both macroAccuracy (mean over phenomena, the paper\'s number) and pooledAccuracy (passes / rows), each with an interval', async () => {
    const report = await runPreferenceTest(rows, overlapScorer, { resamples: 400 });
    // hand: num 1/2, neg 2/3 → macro (1/2 + 2/3)/2 = 0.5833; pooled 3/5 = 0.6
    expect(report.macroAccuracy.accuracy).toBeCloseTo(7 / 12, 12);
    expect(report.pooledAccuracy.accuracy).toBeCloseTo(0.6, 12);
    expect(report.pooledAccuracy).toMatchObject({ n: 5, passed: 3 });
    expect(report.overall).toEqual(report.macroAccuracy);
    for (const est of [report.macroAccuracy, report.pooledAccuracy]) {
      expect(est.ci[0]).toBeLessThanOrEqual(est.accuracy);
      expect(est.ci[1]).toBeGreaterThanOrEqual(est.accuracy);
    }
  });

  it('averages phenomena, not rows, for the overall accuracy (MENLI M:558–560)', async () => {
    const report = await runPreferenceTest(rows, overlapScorer, { resamples: 200 });
    expect(report.overall.accuracy).toBeCloseTo((0.5 + 2 / 3) / 2, 12);
    expect(report.overall.n).toBe(5);
    expect(report.overall.passed).toBe(3);
  });

  it('prefers the lower score for a lower-is-better metric such as TER', async () => {
    // Same raw values as overlapScorer, declared lower-is-better: only row 3 (2 < 3) passes.
    const lowerBetter: PairScorer = async (anchors, hyps) => ({
      ...(await overlapScorer(anchors, hyps)),
      higherIsBetter: false,
    });
    const report = await runPreferenceTest(rows, lowerBetter, { resamples: 10 });
    expect(report.failing.map((f) => f.id)).toEqual(['1', '2', '4', '5']);
  });

  it('gives the same interval for the same seed and a different one for another seed', async () => {
    const many = Array.from({ length: 60 }, (_, i) => row(String(i), 'p', i % 3 ? 'the cat sat' : 'x', 'the'));
    const a = await runPreferenceTest(many, overlapScorer, { seed: 1 });
    const b = await runPreferenceTest(many, overlapScorer, { seed: 1 });
    const c = await runPreferenceTest(many, overlapScorer, { seed: 2 });
    expect(a.overall.ci).toEqual(b.overall.ci);
    expect(a.overall.ci).not.toEqual(c.overall.ci);
    expect(a.bootstrap).toEqual({ seed: 1, resamples: 1000, confidence: 0.95 });
  });

  it('puts the 95% interval around p = 2/3 at about ±1.96·sqrt(p(1−p)/n)', async () => {
    // Normal approximation of a binomial proportion: n = 600, p = 2/3 → half-width ≈ 0.0377.
    const many = Array.from({ length: 600 }, (_, i) => row(String(i), 'p', i % 3 ? 'the cat sat' : 'x', 'the'));
    const report = await runPreferenceTest(many, overlapScorer, { seed: 7, resamples: 2000 });
    const [lo, hi] = report.overall.ci;
    expect(report.overall.accuracy).toBeCloseTo(2 / 3, 12);
    expect((hi - lo) / 2).toBeGreaterThan(0.03);
    expect((hi - lo) / 2).toBeLessThan(0.045);
    expect(lo).toBeLessThan(2 / 3);
    expect(hi).toBeGreaterThan(2 / 3);
  });

  it('gives a zero-width interval when every row passes', () => {
    const report = preferenceReport([row('1', 'p', 'a', 'b'), row('2', 'p', 'a', 'b')], [2, 2], [1, 1], {
      signature: 's',
      higherIsBetter: true,
    });
    expect(report.overall).toEqual({ accuracy: 1, ci: [1, 1], n: 2, passed: 2 });
  });

  it('rejects score arrays of the wrong length and non-finite scores', () => {
    const s = { signature: 's', higherIsBetter: true };
    expect(() => preferenceReport([row('1', 'p', 'a', 'b')], [1, 2], [1], s)).toThrow(RangeError);
    expect(() => preferenceReport([row('1', 'p', 'a', 'b')], [Number.NaN], [1], s)).toThrow(/non-finite/);
  });
});

describe('menliPreferenceRows', () => {
  const menli: MenliRow = {
    error: 'neg',
    id: '9',
    source: 'Die Wirtschaft wird schwach bleiben.',
    ref: 'Emerging economies will remain weak.',
    r: 'The economy will remain weak.',
    hypPara: 'Emerging markets will remain weak.',
    hypAdvBased: "Emerging economies won't remain weak.",
    hypAdvFree: "The economy won't remain weak.",
  };

  it('compares paraphrase against ref-based attack with the reference as anchor in ref mode', () => {
    expect(menliPreferenceRows([menli], 'ref')[0]).toMatchObject({
      anchor: menli.ref,
      good: menli.hypPara,
      bad: menli.hypAdvBased,
    });
  });

  it('compares the reference against the ref-free attack with the source as anchor in src mode (M:233)', () => {
    expect(menliPreferenceRows([menli], 'src')[0]).toMatchObject({
      anchor: menli.source,
      good: menli.ref,
      bad: menli.hypAdvFree,
    });
  });

  it('refuses src mode for a row without a source', () => {
    expect(() => menliPreferenceRows([{ ...menli, source: '' }], 'src')).toThrow(/reference-free/);
  });
});
