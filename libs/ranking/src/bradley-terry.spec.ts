import { defined } from '../../../test/support/defined';
import { bootstrapBradleyTerry } from './bootstrap';
import { BradleyTerryConvergenceError, bradleyTerryProbability, countWins, fitBradleyTerry } from './bradley-terry';
import { FIG1 } from './fixtures/fig1';
import { mulberry32 } from './prng';
import type { ScoreTable } from './score-table';


describe('Bradley–Terry', () => {
  it('counts strict wins per pair for the paper Fig. 1 systems (B beats A 4–1, C beats A 4–1, B beats C 4–1)', () => {
    expect(countWins(FIG1)).toEqual([
      [0, 1, 1],
      [4, 0, 4],
      [4, 1, 0],
    ]);
  });

  it('fits the paper Fig. 1 strengths ≈ (0.0942, 0.6570, 0.2488)', () => {
    // docs/science.md §1: BT run of the BT-eval notebook data (MM stopped at ‖Δ‖² < 1e-9, 4 digits);
    // the exact MLE is (0.094186…, 0.657053…, 0.248761…) (newtonReference below), so 3 digits here.
    const fit = fitBradleyTerry(countWins(FIG1));
    const ref = newtonReference(countWins(FIG1));
    fit.strengths.forEach((s, i) => expect(Math.abs(s - (ref[i] ?? NaN))).toBeLessThan(1e-10));
    expect(fit.converged).toBe(true);
    expect(fit.strengths[0]).toBeCloseTo(0.0942, 3);
    expect(fit.strengths[1]).toBeCloseTo(0.657, 3);
    expect(fit.strengths[2]).toBeCloseTo(0.2488, 3);
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
    // docs/science.md §1 "Transitivity": A=[1,2,3], B=[2,3,1], C=[3,2,1]
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
      for (let j = 0; j < 4; j++) if (i !== j) expected += ((defined(wins[i]?.[j], 'wins[i][j]') + defined(wins[j]?.[i], 'wins[j][i]')) * (s[i] ?? NaN)) / ((s[i] ?? NaN) + (s[j] ?? NaN));
      expect(expected).toBeCloseTo(wins[i]?.reduce((a, b) => a + b, 0) ?? NaN, 6);
    }
  });

  it('puts a system that never wins in its own lower tier and fits the rest exactly (no finite MLE)', () => {
    const fit = fitBradleyTerry([
      [0, 3, 5],
      [2, 0, 4],
      [0, 0, 0],
    ]);
    expect(fit.finiteMle).toBe(false);
    expect(fit.tier).toEqual([0, 0, 1]);
    expect(fit.component).toEqual([0, 0, 1]);
    // A vs B alone: 3 of 5 (two systems: λ = win shares, thesis T:3544)
    expect(fit.strengths[0]).toBeCloseTo(0.6, 12);
    expect(fit.strengths[1]).toBeCloseTo(0.4, 12);
    expect(bradleyTerryProbability(fit.strengths, 0, 2, fit)).toBe(1);
    expect(bradleyTerryProbability(fit.strengths, 2, 1, fit)).toBe(0);
  });

  it('puts a system that never loses in tier 1 alone and fits the rest without it', () => {
    const fit = fitBradleyTerry([
      [0, 5, 5],
      [0, 0, 3],
      [0, 1, 0],
    ]);
    expect(fit.finiteMle).toBe(false);
    expect(fit.tier).toEqual([0, 1, 1]);
    expect(fit.strengths[1]).toBeCloseTo(0.75, 12); // B vs C alone: 3 of 4
    expect(bradleyTerryProbability(fit.strengths, 0, 1, fit)).toBe(1);
  });

  it('orders a strict chain A > B > C by tiers 0, 1, 2', () => {
    const fit = fitBradleyTerry([
      [0, 3, 3],
      [0, 0, 3],
      [0, 0, 0],
    ]);
    expect(fit.tier).toEqual([0, 1, 2]);
    expect(fit.finiteMle).toBe(false);
    expect(bradleyTerryProbability(fit.strengths, 0, 1, fit)).toBe(1);
    expect(bradleyTerryProbability(fit.strengths, 1, 0, fit)).toBe(0);
  });

  it('ranks a group that always beats another group above it, fitting each group alone (no single system unbeaten)', () => {
    // A, B beat each other 3–2; C, D beat each other 4–1; A and B win every game against C and D.
    // Before: one finite fit with P(A beats C) = .9975. The MLE does not exist (sup of L at λ_C/λ_A → 0).
    const wins = [
      [0, 3, 5, 5],
      [2, 0, 5, 5],
      [0, 0, 0, 4],
      [0, 0, 1, 0],
    ];
    const fit = fitBradleyTerry(wins);
    expect(fit.finiteMle).toBe(false);
    expect(fit.tier).toEqual([0, 0, 1, 1]);
    expect(fit.component).toEqual([0, 0, 1, 1]);
    // hand: each pair alone is a two-system fit → win shares
    expect(fit.strengths[0]).toBeCloseTo(0.6, 12);
    expect(fit.strengths[1]).toBeCloseTo(0.4, 12);
    expect(fit.strengths[2]).toBeCloseTo(0.8, 12);
    expect(fit.strengths[3]).toBeCloseTo(0.2, 12);
    expect(bradleyTerryProbability(fit.strengths, 0, 2, fit)).toBe(1);
    expect(bradleyTerryProbability(fit.strengths, 1, 3, fit)).toBe(1);
  });

  it('reports a disconnected comparison graph: two groups that never met share tier 0 and are incomparable', () => {
    // A–B met (3–1), C–D met (2–2); no decisive game across (e.g. all ties).
    const fit = fitBradleyTerry([
      [0, 3, 0, 0],
      [1, 0, 0, 0],
      [0, 0, 0, 2],
      [0, 0, 2, 0],
    ]);
    expect(fit.finiteMle).toBe(false);
    expect(fit.tier).toEqual([0, 0, 0, 0]);
    expect(fit.component).toEqual([0, 0, 1, 1]);
    expect(fit.strengths[0]).toBeCloseTo(0.75, 12);
    expect(fit.strengths[2]).toBeCloseTo(0.5, 12);
    expect(bradleyTerryProbability(fit.strengths, 0, 2, fit)).toBeNaN();
  });

  it('gives two systems where one always wins two tiers', () => {
    const fit = fitBradleyTerry([[0, 5], [0, 0]]);
    expect(fit.tier).toEqual([0, 1]);
    expect(fit.finiteMle).toBe(false);
  });

  it('returns equal strengths when every comparison is a tie (two incomparable singletons)', () => {
    const fit = fitBradleyTerry([
      [0, 0],
      [0, 0],
    ]);
    expect(fit.tier).toEqual([0, 0]);
    expect(fit.strengths).toEqual([1, 1]);
  });

  it('agrees with an independent Newton fit to 1e-8 on strongly connected data (5 systems)', () => {
    // Reference: Newton–Raphson on the score equations in λ with λ_5 = 1 fixed, written here
    // independently of the library (dense Jacobian, Gaussian elimination), iterated to 1e-15.
    const wins = [
      [0, 12, 30, 7, 1],
      [20, 0, 25, 9, 3],
      [5, 8, 0, 4, 2],
      [30, 28, 33, 0, 1],
      [2, 1, 1, 1, 0],
    ];
    const ref = newtonReference(wins);
    const fit = fitBradleyTerry(wins);
    expect(fit.finiteMle).toBe(true);
    fit.strengths.forEach((s, i) => expect(Math.abs(s - (ref[i] ?? NaN))).toBeLessThan(1e-8));
    // and with the paper's MM stopping rule alone the error is far larger: the polish matters
    const mmOnly = fitBradleyTerry(wins, { polish: false });
    expect(Math.max(...mmOnly.strengths.map((s, i) => Math.abs(s - (ref[i] ?? NaN))))).toBeGreaterThan(1e-8);
  });

  it('throws a clear error when the iteration cap is hit', () => {
    expect(() => fitBradleyTerry([[0, 1, 1], [4, 0, 4], [4, 1, 0]], { maxIterations: 2 })).toThrow(BradleyTerryConvergenceError);
    expect(() => fitBradleyTerry([[0, 1, 1], [4, 0, 4], [4, 1, 0]], { maxIterations: 2 })).toThrow(/did not converge in 2 iterations/);
  });

  it('flips the direction for lower-is-better scores', () => {
    expect(countWins({ ...FIG1, higherIsBetter: false })).toEqual([
      [0, 4, 4],
      [1, 0, 1],
      [1, 4, 0],
    ]);
  });

  it('brackets the point strengths with seeded, reproducible bootstrap intervals', () => {
    const a = bootstrapBradleyTerry(FIG1, { resamples: 200, seed: 1 });
    const b = bootstrapBradleyTerry(FIG1, { resamples: 200, seed: 1 });
    expect(a).toEqual(b);
    a.strengths.forEach((s, i) => {
      expect(a.ci[i]?.[0]).toBeLessThanOrEqual(s);
      expect(a.ci[i]?.[1]).toBeGreaterThanOrEqual(s);
      expect(a.rankCi[i]?.[0]).toBeLessThanOrEqual((a.ranks[i] ?? NaN));
      expect(a.rankCi[i]?.[1]).toBeGreaterThanOrEqual((a.ranks[i] ?? NaN));
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
    const resampled = { ...t, scores: t.scores.map((r) => idx.map((i) => r[i] ?? NaN)) };
    const naive = fitBradleyTerry(countWins(resampled), { tolerance: 1e-16, maxIterations: 100000, throwOnNonConvergence: false });
    naive.strengths.forEach((s, i) => expect(ours.ci[i]?.[0]).toBeCloseTo(s, 6)); // one resample: ci = [v, v]
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
        const direct = i === j ? 0 : t.scores[i]?.filter((x, l) => x > defined(t.scores[j]?.[l], 'score')).length;
        expect(w[i]?.[j]).toBe(direct);
      }
  });
});

/** Independent reference: Newton on F_i(λ) = W_i − Σ_j N_ij λ_i/(λ_i+λ_j) = 0 with λ_{k−1} = 1. */
function newtonReference(wins: number[][]): number[] {
  const k = wins.length;
  const W = wins.map((r) => r.reduce((a, b) => a + b, 0));
  const N = wins.map((r, i) => r.map((w, j) => w + defined(wins[j]?.[i], 'wins[j][i]')));
  const lam = new Array<number>(k).fill(1);
  for (let it = 0; it < 200; it++) {
    const d = k - 1;
    const F = new Array<number>(d).fill(0);
    const J = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let i = 0; i < d; i++) {
      F[i] = W[i] ?? NaN;
      for (let j = 0; j < k; j++) {
        if (i === j) continue;
        const s = (lam[i] ?? NaN) + (lam[j] ?? NaN);
        F[i] = defined(F[i], 'F[i]') - (defined(N[i]?.[j], 'N[i][j]') * (lam[i] ?? NaN)) / s;
        const Ji = J[i] ?? [];
        const Nij = N[i]?.[j] ?? NaN;
        Ji[i] = (Ji[i] ?? NaN) - (Nij * (lam[j] ?? NaN)) / (s * s);
        if (j < d) Ji[j] = (Ji[j] ?? NaN) + (Nij * (lam[i] ?? NaN)) / (s * s);
      }
    }
    // solve J·δ = −F
    const A = J.map((r, i) => [...r, -(F[i] ?? NaN)]);
    for (let c = 0; c < d; c++) {
      let p = c;
      for (let r = c + 1; r < d; r++) if (Math.abs(defined(A[r]?.[c], 'A[r][c]')) > Math.abs(defined(A[p]?.[c], 'A[p][c]'))) p = r;
      const [rowC, rowP] = [A[c], A[p]];
      if (!rowC || !rowP) throw new Error('pivot row missing');
      [A[c], A[p]] = [rowP, rowC];
      for (let r = 0; r < d; r++) {
        if (r === c) continue;
        const f = defined(A[r]?.[c], 'A[r][c]') / defined(A[c]?.[c], 'pivot');
        const Ar = A[r] ?? [];
        for (let q = c; q <= d; q++) Ar[q] = (Ar[q] ?? NaN) - f * (A[c]?.[q] ?? NaN);
      }
    }
    let mx = 0;
    for (let i = 0; i < d; i++) {
      const step = defined(A[i]?.[d], 'A[i][d]') / defined(A[i]?.[i], 'A[i][i]');
      lam[i] = defined(lam[i], 'lam[i]') + step;
      mx = Math.max(mx, Math.abs(step));
    }
    if (mx < 1e-15) break;
  }
  const sum = lam.reduce((a, b) => a + b, 0);
  return lam.map((v) => v / sum);
}
