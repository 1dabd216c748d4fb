import { bootstrapBradleyTerry } from './bootstrap';
import { BradleyTerryConvergenceError, bradleyTerryProbability, countWins, fitBradleyTerry } from './bradley-terry';
import { mulberry32 } from './prng';
import type { ScoreTable } from './score-table';

const fig1: ScoreTable = {
  systems: ['A', 'B', 'C'],
  instances: ['1', '2', '3', '4', '5'],
  scores: [
    [1, 5, 11, 12, 17],
    [5, 11, 12, 17, 1],
    [2, 6, 7, 13, 18],
  ],
};

describe('Bradley–Terry', () => {
  it('counts strict wins per pair for the paper Fig. 1 systems (B beats A 4–1, C beats A 4–1, B beats C 4–1)', () => {
    expect(countWins(fig1)).toEqual([
      [0, 1, 1],
      [4, 0, 4],
      [4, 1, 0],
    ]);
  });

  it('fits the paper Fig. 1 strengths ≈ (0.0942, 0.6570, 0.2488)', () => {
    // SCIENCE.md §1: BT run of the BT-eval notebook data
    const fit = fitBradleyTerry(countWins(fig1));
    expect(fit.converged).toBe(true);
    expect(fit.strengths[0]).toBeCloseTo(0.0942, 4);
    expect(fit.strengths[1]).toBeCloseTo(0.657, 4);
    expect(fit.strengths[2]).toBeCloseTo(0.2488, 4);
    expect(fit.strengths.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('reduces to the win shares for two systems (thesis T:3544)', () => {
    const fit = fitBradleyTerry([
      [0, 7],
      [3, 0],
    ]);
    expect(fit.strengths[0]).toBeCloseTo(0.7, 6);
    expect(bradleyTerryProbability(fit.strengths, 0, 1)).toBeCloseTo(0.7, 6);
  });

  it('reproduces the transitivity example with ties dropped: (0.253, 0.421, 0.326)', () => {
    // SCIENCE.md §1 "Transitivity": A=[1,2,3], B=[2,3,1], C=[3,2,1]
    const t: ScoreTable = { systems: ['A', 'B', 'C'], instances: ['1', '2', '3'], scores: [[1, 2, 3], [2, 3, 1], [3, 2, 1]] };
    const s = fitBradleyTerry(countWins(t)).strengths;
    expect(s[0]).toBeCloseTo(0.253, 3);
    expect(s[1]).toBeCloseTo(0.421, 3);
    expect(s[2]).toBeCloseTo(0.326, 3);
  });

  it('satisfies the maximum-likelihood equations W_i = Σ_j N_ij λ_i/(λ_i+λ_j) at the fit', () => {
    const wins = [
      [0, 12, 30, 7],
      [20, 0, 25, 9],
      [5, 8, 0, 4],
      [30, 28, 33, 0],
    ];
    const s = fitBradleyTerry(wins, { tolerance: 1e-20, maxIterations: 100000, throwOnNonConvergence: false }).strengths;
    for (let i = 0; i < 4; i++) {
      let expected = 0;
      for (let j = 0; j < 4; j++) if (i !== j) expected += ((wins[i][j] + wins[j][i]) * s[i]) / (s[i] + s[j]);
      expect(expected).toBeCloseTo(wins[i].reduce((a, b) => a + b, 0), 6);
    }
  });

  it('gives a system that never wins strength 0 and keeps the others finite (no NaN)', () => {
    const fit = fitBradleyTerry([
      [0, 3, 5],
      [2, 0, 4],
      [0, 0, 0],
    ]);
    expect(fit.strengths[2]).toBe(0);
    expect(fit.strengths.every((s) => !Number.isNaN(s))).toBe(true);
    expect(fit.strengths[0] + fit.strengths[1]).toBeCloseTo(1, 12);
  });

  it('gives a system that never loses an unbounded (Infinity) strength and fits the rest without it', () => {
    const fit = fitBradleyTerry([
      [0, 5, 5],
      [0, 0, 3],
      [0, 1, 0],
    ]);
    expect(fit.strengths[0]).toBe(Infinity);
    expect(fit.tier).toEqual([0, 1, 1]);
    expect(fit.strengths[1]).toBeCloseTo(0.75, 6); // B vs C alone: 3 of 4
    expect(bradleyTerryProbability(fit.strengths, 0, 1)).toBe(1);
  });

  it('orders a strict chain A > B > C by tiers: A, B unbounded, C zero', () => {
    const fit = fitBradleyTerry([
      [0, 3, 3],
      [0, 0, 3],
      [0, 0, 0],
    ]);
    expect(fit.strengths).toEqual([Infinity, Infinity, 0]);
    expect(fit.tier).toEqual([0, 1, 2]);
    expect(bradleyTerryProbability(fit.strengths, 0, 1, fit.tier)).toBe(1);
    expect(bradleyTerryProbability(fit.strengths, 1, 0, fit.tier)).toBe(0);
  });

  it('gives two systems where one always wins strengths (Infinity, 0), the limit of the win shares', () => {
    expect(fitBradleyTerry([[0, 5], [0, 0]]).strengths).toEqual([Infinity, 0]);
  });

  it('returns equal strengths when every comparison is a tie', () => {
    const fit = fitBradleyTerry([
      [0, 0],
      [0, 0],
    ]);
    expect(fit.strengths).toEqual([0.5, 0.5]);
  });

  it('throws a clear error when the iteration cap is hit', () => {
    expect(() => fitBradleyTerry([[0, 1, 1], [4, 0, 4], [4, 1, 0]], { maxIterations: 2 })).toThrow(BradleyTerryConvergenceError);
    expect(() => fitBradleyTerry([[0, 1, 1], [4, 0, 4], [4, 1, 0]], { maxIterations: 2 })).toThrow(/did not converge in 2 iterations/);
  });

  it('flips the direction for lower-is-better scores', () => {
    expect(countWins({ ...fig1, higherIsBetter: false })).toEqual([
      [0, 4, 4],
      [1, 0, 1],
      [1, 4, 0],
    ]);
  });

  it('brackets the point strengths with seeded, reproducible bootstrap intervals', () => {
    const a = bootstrapBradleyTerry(fig1, { resamples: 200, seed: 1 });
    const b = bootstrapBradleyTerry(fig1, { resamples: 200, seed: 1 });
    expect(a).toEqual(b);
    a.strengths.forEach((s, i) => {
      expect(a.ci[i][0]).toBeLessThanOrEqual(s);
      expect(a.ci[i][1]).toBeGreaterThanOrEqual(s);
      expect(a.rankCi[i][0]).toBeLessThanOrEqual(a.ranks[i]);
      expect(a.rankCi[i][1]).toBeGreaterThanOrEqual(a.ranks[i]);
    });
  });

  it('matches a naive index-resampling bootstrap given the same resample counts', () => {
    // The shared-weights engine must estimate the same thing as refitting on resampled rows.
    const rows = 60;
    const t: ScoreTable = {
      systems: ['a', 'b', 'c', 'd'],
      instances: Array.from({ length: rows }, (_, i) => String(i)),
      scores: [0, 1, 2, 3].map((s) => Array.from({ length: rows }, (_, i) => Math.round(Math.sin(i * (s + 1.3)) * 3 + s * 0.4))),
    };
    const ours = bootstrapBradleyTerry(t, { resamples: 1, seed: 99, bradleyTerry: { tolerance: 1e-16, maxIterations: 100000 } });
    // rebuild the same resample: mulberry32(99), n draws of nextInt(n)
    const rng = mulberry32(99);
    const idx = Array.from({ length: rows }, () => rng.nextInt(rows));
    const resampled = { ...t, scores: t.scores.map((r) => idx.map((i) => r[i])) };
    const naive = fitBradleyTerry(countWins(resampled), { tolerance: 1e-16, maxIterations: 100000, throwOnNonConvergence: false });
    naive.strengths.forEach((s, i) => expect(ours.ci[i][0]).toBeCloseTo(s, 6)); // one resample: ci = [v, v]
  });
});

describe('countWins', () => {
  it('agrees with a direct pair-by-pair count for 7 systems (exercises the 4-wide and remainder loops)', () => {
    const rng = mulberry32(5);
    const t: ScoreTable = {
      systems: Array.from({ length: 7 }, (_, s) => `s${s}`),
      instances: Array.from({ length: 50 }, (_, i) => String(i)),
      scores: Array.from({ length: 7 }, () => Array.from({ length: 50 }, () => rng.nextInt(4))), // many ties
    };
    const w = countWins(t);
    for (let i = 0; i < 7; i++)
      for (let j = 0; j < 7; j++) {
        const direct = i === j ? 0 : t.scores[i].filter((x, l) => x > t.scores[j][l]).length;
        expect(w[i][j]).toBe(direct);
      }
  });
});
