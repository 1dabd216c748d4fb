import inputs from './fixtures/inputs.json';
import reference from './fixtures/scipy-reference.json';
import { kthOfUnion, moodMedianTest, moodMedianTestSorted, moodMedianTestUnsorted, moodWithin, pairedTTest, signTest, wilcoxonSignedRank } from './paired-tests';
import { mulberry32 } from './prng';
import { medianBySelection } from './selection';
import { benjaminiHochberg, holm, adjustPValues } from './correction';

// Expected numbers: fixtures/scipy-reference.json (derive_by_hand.py; SciPy script beside it).
describe('paired tests against reference values', () => {
  it('matches ttest_rel on two samples (ν = 7 and ν = 10)', () => {
    for (const name of ['ttest_odd', 'ttest_even'] as const) {
      const r = pairedTTest(inputs[name].a, inputs[name].b);
      expect(r.statistic).toBeCloseTo(reference[name].statistic, 10);
      expect(r.p).toBeCloseTo(reference[name].p, 10);
    }
  });

  it("matches the published paired t-test on Student's sleep data (t = −4.0621, p = 0.002833)", () => {
    const r = pairedTTest(inputs.ttest_sleep.a, inputs.ttest_sleep.b);
    expect(r.statistic).toBeCloseTo(-4.0621, 4); // R: t.test(extra ~ group, sleep, paired = TRUE)
    expect(r.p).toBeCloseTo(0.002833, 6);
    expect(r.p).toBeCloseTo(reference.ttest_sleep.p, 10);
  });

  it('returns t = ±∞ with p = 0 for constant non-zero differences, and p = 1 for identical samples', () => {
    expect(pairedTTest([2, 3, 4], [1, 2, 3])).toMatchObject({ statistic: Infinity, p: 0 });
    expect(pairedTTest([2, 3, 4], [2, 3, 4])).toMatchObject({ statistic: 0, p: 1 });
  });

  it('matches the exact Wilcoxon test on Hollander & Wolfe p. 29 (T = 5, p = 0.03906)', () => {
    const r = wilcoxonSignedRank(inputs.wilcoxon_exact.a, inputs.wilcoxon_exact.b);
    expect(r.method).toBe('exact');
    expect(r.statistic).toBe(reference.wilcoxon_exact.statistic);
    expect(r.p).toBeCloseTo(reference.wilcoxon_exact.p, 12);
  });

  it('uses the exact permutation distribution with |d| ties and zeros (n ≤ 50), equal to full enumeration', () => {
    const r = wilcoxonSignedRank(inputs.wilcoxon_ties.a, inputs.wilcoxon_ties.b);
    expect(r.method).toBe('exact');
    expect(r.n).toBe(12); // two zero differences dropped (zero_method='wilcox')
    expect(r.statistic).toBe(reference.wilcoxon_ties.statistic);
    const d = inputs.wilcoxon_ties.a.map((x, i) => x - (inputs.wilcoxon_ties.b[i] ?? NaN));
    expect(r.p).toBeCloseTo(enumeratedWilcoxonP(d), 14);
  });

  it('gives five identical differences p = 2/32 = 0.0625 (the smallest p any exact test reaches at n = 5), not 0.025', () => {
    // hand: all ranks tie at 3, R⁺ = 15 only when all five signs are +; two-sided 2·(1/32)
    const r = wilcoxonSignedRank([1, 1, 1, 1, 1], [0, 0, 0, 0, 0]);
    expect(r.p).toBeCloseTo(0.0625, 14);
    expect(enumeratedWilcoxonP([1, 1, 1, 1, 1])).toBeCloseTo(0.0625, 14);
  });

  it('matches full enumeration of the 2^n sign flips on tied samples with zeros (n up to 16)', () => {
    // Independent reference: SciPy's permutation test for wilcoxon (method='auto' with ties/zeros,
    // SciPy ≥ 1.15) enumerates all sign flips of the non-zero differences; enumeratedWilcoxonP does the same.
    const cases = [
      [0.5, 0.5, -0.5, 1, 1, 1, 2, 0, 0, -2, 3],
      [1, 2, 2, 2, 3, 3, -3, 4, 4, 4, 4, -1, 0],
      [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, -0.1, 0.2, 0.2, 0.3, 0.3, 0.3, -0.3, 0.4, 0.4, 0.5],
      [-1, -1, -2, -2, 0, 3],
    ];
    for (const d of cases) {
      const r = wilcoxonSignedRank(d, d.map(() => 0));
      expect(r.method).toBe('exact');
      expect(r.p).toBeCloseTo(enumeratedWilcoxonP(d), 13);
    }
  });

  it('computes the exact distribution for n = 5 by hand: all positive gives p = 2/32', () => {
    expect(wilcoxonSignedRank([1, 2, 3, 4, 5], [0, 0, 0, 0, 0]).p).toBeCloseTo(0.0625, 14);
  });

  it('matches the exact two-sided sign test with ties dropped (14 wins, 4 losses, 2 ties)', () => {
    const a = [...Array(14).fill(1), ...Array(4).fill(0), 5, 5];
    const b = [...Array(14).fill(0), ...Array(4).fill(1), 5, 5];
    const r = signTest(a, b);
    expect(r).toMatchObject({ wins: 14, losses: 4, ties: 2 });
    expect(r.p).toBeCloseTo(reference.sign.p, 12);
  });

  it("matches SciPy median_test defaults (ties below, Yates) on samples with values at the grand median", () => {
    const r = moodMedianTest(inputs.mood.a, inputs.mood.b);
    expect(r.grandMedian).toBe(reference.mood.grand_median);
    expect(r.table).toEqual(reference.mood.table);
    expect(r.statistic).toBeCloseTo(reference.mood.statistic, 12);
    expect(r.p).toBeCloseTo(reference.mood.p, 12);
  });

  it('gives the same table, statistic and p on unsorted samples (selection) as on sorted ones, ties and both parities included', () => {
    expect(moodMedianTestUnsorted(Float64Array.from(inputs.mood.a), Float64Array.from(inputs.mood.b))).toEqual(moodMedianTest(inputs.mood.a, inputs.mood.b));
    const r = mulberry32(3);
    // 5,000 values per sample (the selection's bracketed path from 4,096), rounded so that many sit at the grand median
    for (const [na, nb] of [[5000, 5000], [5000, 4999], [7, 8]] as const) {
      const a = Float64Array.from({ length: na }, () => Math.round(r.nextNormal() * 4) / 4);
      const b = Float64Array.from({ length: nb }, () => Math.round((r.nextNormal() + 0.3) * 4) / 4);
      const expected = moodMedianTestSorted(Float64Array.from(a).sort(), Float64Array.from(b).sort());
      expect(moodMedianTestUnsorted(a, b)).toEqual(expected);
      expect(expected.table[0][0]).toBeGreaterThan(0);
    }
  });

  it('gives the same table, statistic and p when told the two medians (the grand median selected between them), whatever the layout', () => {
    const r = mulberry32(11);
    const medianOf = (x: Float64Array) => moodMedianTestSorted(Float64Array.from(x).sort(), Float64Array.from(x).sort()).grandMedian;
    // −0 and 0 are one grand median (the selection may give either; the table compares with >)
    const unsigned = <T extends { grandMedian: number }>(m: T): T => ({ ...m, grandMedian: m.grandMedian + 0 });
    let checked = 0;
    for (const [na, nb, step, shift] of [[5000, 5000, 4, 0.3], [5000, 4999, 1, 0], [301, 300, 0, 2], [7, 8, 2, 0.5], [1, 2, 0, 0], [40, 40, 1, 0]] as const) {
      for (let rep = 0; rep < 5; rep++) {
        // rounded to 1/step (step 0: no rounding); step 1 puts most values on a few integers (heavy ties at the medians)
        const draw = (s: number) => (step ? Math.round((r.nextNormal() + s) * step) / step : r.nextNormal() + s);
        const a = Float64Array.from({ length: na }, () => draw(0));
        const b = Float64Array.from({ length: nb }, () => draw(shift));
        const expected = moodMedianTestSorted(Float64Array.from(a).sort(), Float64Array.from(b).sort());
        const medians = [medianOf(a), medianOf(b)] as const;
        expect(unsigned(moodMedianTestUnsorted(a, b, undefined, medians))).toEqual(unsigned(expected));
        // the bracket served (no selection on the joined samples), and a bracket that misses says so
        expect(unsigned(moodWithin(a, b, Math.min(...medians), Math.max(...medians)) ?? { grandMedian: Number.NaN })).toEqual({ grandMedian: expected.grandMedian + 0, aAbove: expected.table[0][0], bAbove: expected.table[0][1] });
        expect(moodWithin(a, b, medians[1] + 5, medians[1] + 6)).toBeNull();
        // wrong brackets (the grand median outside them, or reversed) fall back to the selection: still the same
        expect(unsigned(moodMedianTestUnsorted(a, b, undefined, [medians[1] + 5, medians[1] + 6]))).toEqual(unsigned(expected));
        expect(unsigned(moodMedianTestUnsorted(a, b, undefined, [medians[1], medians[0]]))).toEqual(unsigned(expected));
        expect(unsigned(moodMedianTestUnsorted(a, b, undefined, [Number.NaN, medians[0]]))).toEqual(unsigned(expected));
        checked++;
      }
    }
    expect(checked).toBe(30);
  });

  it('gives χ² = 25/3 for completely separated samples of six (hand: |O − E| = 3 → 2.5, 4·2.5²/3)', () => {
    const r = moodMedianTest([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]);
    expect(r.statistic).toBeCloseTo(25 / 3, 12);
    expect(r.p).toBeCloseTo(0.0038924171227786, 10); // erfc(√(25/6))
  });

  it('adjusts p-values like statsmodels holm and fdr_bh', () => {
    holm(inputs.pvalues).forEach((p, i) => expect(p).toBeCloseTo((reference.holm[i] ?? NaN), 14));
    benjaminiHochberg(inputs.pvalues).forEach((p, i) => expect(p).toBeCloseTo((reference.bh[i] ?? NaN), 14));
    expect(adjustPValues(inputs.pvalues, 'none')).toEqual(inputs.pvalues);
  });
});

/** Two-sided p by enumerating all 2^n sign patterns of the non-zero |d| with average ranks. */
function enumeratedWilcoxonP(d: number[]): number {
  const nz = d.filter((x) => x !== 0);
  const abs = nz.map(Math.abs);
  const ranks = abs.map((v) => {
    const below = abs.filter((w) => w < v).length;
    const equal = abs.filter((w) => w === v).length;
    return below + (equal + 1) / 2;
  });
  const observed = ranks.reduce((s, r, i) => s + ((nz[i] ?? NaN) > 0 ? r : 0), 0);
  const n = nz.length;
  let le = 0;
  let ge = 0;
  for (let mask = 0; mask < 1 << n; mask++) {
    let s = 0;
    for (let i = 0; i < n; i++) if (mask & (1 << i)) s += (ranks[i] ?? NaN);
    if (s <= observed + 1e-9) le++;
    if (s >= observed - 1e-9) ge++;
  }
  return Math.min(1, (2 * Math.min(le, ge)) / 2 ** n);
}

// The O(log n) selection behind Mood's test and the O(n) median of differences must give exactly
// what sorting gives (reference: the k-th entry of the sorted concatenation), ties included.
describe('selection without sorting', () => {
  const rng = mulberry32(99);
  const sample = (len: number, levels: number) => Float64Array.from({ length: len }, () => rng.nextInt(levels) - levels / 2);
  it('finds every order statistic of the union of two sorted arrays', () => {
    for (const [na, nb, levels] of [[0, 5, 3], [7, 0, 3], [1, 1, 2], [13, 8, 4], [40, 41, 1000], [25, 25, 2]] as const) {
      const a = sample(na, levels).sort();
      const b = sample(nb, levels).sort();
      const both = Float64Array.from([...a, ...b]).sort();
      both.forEach((v, k) => expect(kthOfUnion(a, b, k)).toBe(v));
    }
  });
  it('selects the median as the sorted middle (mean of the two middle values when even)', () => {
    const cases: [number, number, boolean][] = [[1, 3, false], [2, 3, false], [9, 2, false], [10, 2, false], [101, 7, false], [1000, 5, false], [1001, 100000, false]];
    // ≥ 4,096 values take the sampled-bracket path: many ties, few ties, sorted input
    cases.push([5000, 3, false], [5001, 40, false], [8192, 1000000, false], [10000, 1000000, true], [9999, 2, true]);
    for (const [len, levels, sortedInput] of cases) {
      const xs = sample(len, levels);
      if (sortedInput) xs.sort();
      const sorted = Float64Array.from(xs).sort();
      const h = len >> 1;
      const expected = len % 2 ? sorted[h] : ((sorted[h - 1] ?? NaN) + (sorted[h] ?? NaN)) / 2;
      expect(medianBySelection(xs)).toBe(expected);
    }
  });
});
