import { analyseSystems } from '../analyse';
import { percentile } from '../descriptive';
import { bootstrapCounts, mulberry32 } from '../prng';
import type { ScoreTable } from '../score-table';
import { instanceWinRates, meanWinRateMethod } from './mean-win-rate';

// Hand-computed example (three systems, three instances):
//   instance 1: A 3, B 1, C 1 → A beats both: 1; B ties C, loses to A: (0 + ½)/2 = ¼; C: ¼
//   instance 2: A 1, B 2, C 3 → A 0, B ½, C 1
//   instance 3: all 2       → ½ each
//   mean win rate: A (1 + 0 + ½)/3 = 0.5, B (¼ + ½ + ½)/3 = 5/12, C (¼ + 1 + ½)/3 = 7/12.
// With lower scores better the comparisons flip: instance 1 gives A 0, B ¾, C ¾; instance 2 A 1, B ½, C 0:
//   A (0 + 1 + ½)/3 = 0.5, B (¾ + ½ + ½)/3 = 7/12, C (¾ + 0 + ½)/3 = 5/12.
const HAND: ScoreTable = {
  systems: ['A', 'B', 'C'],
  instances: ['1', '2', '3'],
  scores: [
    [3, 1, 2],
    [1, 2, 2],
    [1, 3, 2],
  ],
};

/** Brute force, straight from the definition: O(k²n), no sorting. */
function bruteForceWinRates(scores: number[][], higherIsBetter: boolean): number[][] {
  const k = scores.length;
  return scores.map((row, i) =>
    row.map((_, l) => {
      let won = 0;
      for (let j = 0; j < k; j++) {
        if (j === i) continue;
        const [a, b] = [scores[i]?.[l] ?? NaN, scores[j]?.[l] ?? NaN];
        if (a === b) won += 0.5;
        else if (higherIsBetter ? a > b : a < b) won += 1;
      }
      return won / (k - 1);
    }),
  );
}

const valuesOf = (table: ScoreTable) => {
  const a = analyseSystems(table, { resamples: 300, seed: 3 });
  return a.systems.map((s) => s.methods['mean_win_rate']?.value);
};

describe('mean win rate (HELM)', () => {
  it('gives A 1/2, B 5/12 and C 7/12 on the hand-computed example, and ranks C, A, B', () => {
    const a = analyseSystems(HAND, { resamples: 200 });
    const mwr = a.systems.map((s) => s.methods['mean_win_rate']);
    expect(mwr.map((m) => m?.value)).toEqual([expect.closeTo(0.5, 12), expect.closeTo(5 / 12, 12), expect.closeTo(7 / 12, 12)]);
    expect(mwr.map((m) => m?.rank)).toEqual([2, 3, 1]);
  });

  it('compares in the metric direction: lower-is-better scores give A 1/2, B 7/12, C 5/12', () => {
    expect(valuesOf({ ...HAND, higherIsBetter: false })).toEqual([expect.closeTo(0.5, 12), expect.closeTo(7 / 12, 12), expect.closeTo(5 / 12, 12)]);
  });

  it('matches a brute-force reimplementation on random tables with many ties (values, intervals, ranks)', () => {
    const rng = mulberry32(99);
    for (const [k, n, higherIsBetter] of [
      [2, 7, true],
      [5, 40, false],
      [9, 123, true],
    ] as const) {
      const scores = Array.from({ length: k }, () => Array.from({ length: n }, () => Math.floor(rng.next() * 4)));
      const table: ScoreTable = { systems: scores.map((_, i) => `s${i}`), instances: scores[0]?.map((_, l) => String(l).padStart(4, '0')) ?? [], scores, higherIsBetter };
      const R = 250;
      const seed = 17;
      const analysis = analyseSystems(table, { resamples: R, seed });
      const w = bruteForceWinRates(scores, higherIsBetter);
      const expected = w.map((row) => row.reduce((s, v) => s + v, 0) / n);
      // bootstrap by hand: the analysis' draws are mulberry32(seed) multinomial counts, one vector per resample
      const draws = mulberry32(seed);
      const counts = new Int32Array(n);
      const boot = expected.map(() => [] as number[]);
      for (let r = 0; r < R; r++) {
        bootstrapCounts(n, draws, counts);
        w.forEach((row, i) => boot[i]?.push(row.reduce((s, v, l) => s + (counts[l] ?? 0) * v, 0) / n));
      }
      analysis.systems.forEach((s, i) => {
        const m = s.methods['mean_win_rate'];
        expect(m?.value).toBeCloseTo(expected[i] ?? NaN, 12);
        const sample = boot[i] ?? [];
        expect(m?.interval?.[0]).toBeCloseTo(percentile(sample, 2.5), 12);
        expect(m?.interval?.[1]).toBeCloseTo(percentile(sample, 97.5), 12);
        expect(m?.rank).toBe(1 + expected.filter((v) => v > (expected[i] ?? NaN) + 1e-12).length);
        expect(m?.rank_ci[0]).toBeLessThanOrEqual(m?.rank ?? NaN);
        expect(m?.rank_ci[1]).toBeGreaterThanOrEqual(m?.rank ?? NaN);
        expect(m?.cluster).toBeNull();
      });
    }
  });

  it('sums to k/2 over systems on every instance (each game hands out one point)', () => {
    const x = [Float64Array.of(1, 2, 2), Float64Array.of(2, 2, 0), Float64Array.of(3, 2, 1), Float64Array.of(0, 2, 1)];
    const w = instanceWinRates(x);
    for (let l = 0; l < 3; l++) expect(w.reduce((s, row) => s + (row[l] ?? NaN), 0)).toBeCloseTo(4 / 2, 12);
  });

  it('is described to the leaderboard as a bootstrap method without clusters, higher is better', () => {
    const a = analyseSystems(HAND, { resamples: 100 });
    expect(a.methods.find((m) => m.key === 'mean_win_rate')).toEqual({
      key: 'mean_win_rate',
      label: meanWinRateMethod.label,
      description: meanWinRateMethod.description,
      intervalKind: 'bootstrap',
      direction: 'higher is better',
      clusters: false,
      test: null,
    });
  });
});
