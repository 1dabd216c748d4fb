import { orientedScores, RankingInputError, type ScoreTable } from './score-table';

/** Options for {@link fitBradleyTerry}. */
export interface BradleyTerryOptions {
  /** Stop when ‖λ^(t+1) − λ^(t)‖² < tolerance. Default 1e-9 (Zhao thesis, App. E). */
  tolerance?: number;
  /** Iteration cap. Default 10,000. */
  maxIterations?: number;
  /** Throw {@link BradleyTerryConvergenceError} at the cap (default true) instead of returning `converged: false`. */
  throwOnNonConvergence?: boolean;
  /** Starting strengths (e.g. a previous fit, to warm-start bootstrap refits). Default uniform. */
  initial?: ArrayLike<number>;
}

/** Result of a Bradley–Terry fit. */
export interface BradleyTerryFit {
  /**
   * λ, normalised so the finite strengths sum to 1. A system that never wins gets 0 (the
   * boundary maximum-likelihood estimate). A system that wins at least once and never loses has
   * an unbounded MLE: it gets `Infinity` and is removed before fitting the rest (repeatedly).
   */
  strengths: number[];
  iterations: number;
  converged: boolean;
  /** 0 for the first group of undefeated systems peeled off, 1 for the next, …; finite systems last. */
  tier: number[];
}

/**
 * The MM iteration hit its cap without meeting the tolerance (usually: the win graph is not
 * strongly connected, so the maximum-likelihood estimate does not exist; Hunter 2004, Assumption 1).
 * @example try { fitBradleyTerry(wins, { maxIterations: 10 }); } catch (e) { if (e instanceof BradleyTerryConvergenceError) … }
 */
export class BradleyTerryConvergenceError extends Error {
  constructor(iterations: number, change: number) {
    super(
      `Bradley–Terry did not converge in ${iterations} iterations (last squared change ${change.toExponential(2)}); ` +
        'the win graph is probably not strongly connected (a group of systems never loses to the rest)',
    );
    this.name = 'BradleyTerryConvergenceError';
  }
}

/**
 * Pairwise win counts ω_ij = #instances where system i scores strictly higher than system j
 * (ties count for neither; Zhao thesis ch. 11 App. E, ties dropped as in pairformance).
 * Respects `higherIsBetter: false`. Cost O(k²n).
 * @example countWins({ systems: ['A', 'B'], instances: ['1', '2'], scores: [[1, 2], [0, 2]] }); // [[0, 1], [0, 0]]
 */
export function countWins(table: ScoreTable): number[][] {
  const x = orientedScores(table);
  const k = x.length;
  const w = winMatrix(x);
  const out: number[][] = [];
  for (let i = 0; i < k; i++) out.push(Array.from(w.subarray(i * k, (i + 1) * k)));
  return out;
}

/**
 * ω as a flat k×k matrix from oriented per-system score arrays. One sweep over the instances
 * compares system i with four others at once (xi[l] loaded once, branch-free counts): about
 * 2.7× faster than one pair per sweep on V8.
 */
export function winMatrix(x: readonly Float64Array[]): Float64Array {
  const k = x.length;
  const n = k === 0 ? 0 : x[0].length;
  const w = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    const xi = x[i];
    let j = i + 1;
    for (; j + 3 < k; j += 4) {
      const x0 = x[j];
      const x1 = x[j + 1];
      const x2 = x[j + 2];
      const x3 = x[j + 3];
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let b0 = 0;
      let b1 = 0;
      let b2 = 0;
      let b3 = 0;
      for (let l = 0; l < n; l++) {
        const a = xi[l];
        const y0 = x0[l];
        const y1 = x1[l];
        const y2 = x2[l];
        const y3 = x3[l];
        a0 += +(a > y0);
        b0 += +(y0 > a);
        a1 += +(a > y1);
        b1 += +(y1 > a);
        a2 += +(a > y2);
        b2 += +(y2 > a);
        a3 += +(a > y3);
        b3 += +(y3 > a);
      }
      w[i * k + j] = a0;
      w[j * k + i] = b0;
      w[i * k + j + 1] = a1;
      w[(j + 1) * k + i] = b1;
      w[i * k + j + 2] = a2;
      w[(j + 2) * k + i] = b2;
      w[i * k + j + 3] = a3;
      w[(j + 3) * k + i] = b3;
    }
    for (; j < k; j++) {
      const xj = x[j];
      let wij = 0;
      let wji = 0;
      for (let l = 0; l < n; l++) {
        const a = xi[l];
        const b = xj[l];
        wij += +(a > b);
        wji += +(b > a);
      }
      w[i * k + j] = wij;
      w[j * k + i] = wji;
    }
  }
  return w;
}

/**
 * Fits Bradley–Terry strengths to a win matrix by the minorisation–maximisation (MM) algorithm.
 *
 * Model: P(i beats j) = λ_i/(λ_i + λ_j). Log-likelihood L(λ) = Σ_ij ω_ij log λ_i − ω_ij log(λ_i + λ_j).
 * Update: λ_i ← W_i / Σ_{j≠i} (ω_ij + ω_ji)/(λ_i + λ_j), W_i = Σ_j ω_ij; then λ ← λ/Σλ;
 * stop when ‖Δλ‖² < 1e-9 (Zhao thesis ch. 11, App. E, eqs. 2–4; Hunter 2004, Ann. Stat. 32:384).
 *
 * Degenerate data (no NaN): a system that never wins is fixed at 0; a system that never loses but
 * wins at least once gets `Infinity` (tier 0) and the rest are refitted without it (repeatedly:
 * tier 1, …); systems without any decisive comparison (tied with everyone) share equal strength.
 * So two systems where A always wins give A = Infinity, B = 0.
 * @example fitBradleyTerry([[0, 1, 1], [4, 0, 4], [4, 1, 0]]).strengths; // ≈ [0.0942, 0.6570, 0.2488] (paper Fig. 1)
 */
export function fitBradleyTerry(wins: number[][], opts: BradleyTerryOptions = {}): BradleyTerryFit {
  const k = wins.length;
  const W = new Float64Array(k);
  const N = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    if (wins[i].length !== k) throw new RankingInputError(`win matrix row ${i} has ${wins[i].length} entries, expected ${k}`);
    for (let j = 0; j < k; j++) {
      const w = wins[i][j];
      if (!(w >= 0) || !Number.isFinite(w)) throw new RankingInputError(`win count [${i}][${j}] must be a finite number ≥ 0`);
      if (i === j) continue;
      W[i] += w;
      N[i * k + j] += w;
      N[j * k + i] += w;
    }
  }
  const fit = fitBradleyTerrySufficient(W, N, k, opts);
  return { strengths: Array.from(fit.strengths), iterations: fit.iterations, converged: fit.converged, tier: Array.from(fit.tier) };
}

/**
 * MM fit from sufficient statistics: W_i (wins of i) and N_ij = ω_ij + ω_ji (decisive games
 * between i and j, symmetric, flat k×k). Used by bootstrap refits. See {@link fitBradleyTerry}.
 * @example fitBradleyTerrySufficient(Float64Array.of(3, 1), Float64Array.of(0, 4, 4, 0), 2).strengths; // [0.75, 0.25]
 */
export function fitBradleyTerrySufficient(
  W: Float64Array,
  N: Float64Array,
  k: number,
  opts: BradleyTerryOptions = {},
): { strengths: Float64Array; iterations: number; converged: boolean; tier: Int32Array } {
  const tolerance = opts.tolerance ?? 1e-9;
  const maxIterations = opts.maxIterations ?? 10000;
  const strengths = new Float64Array(k);
  const tier = new Int32Array(k);
  const active = new Uint8Array(k).fill(1);
  // Peel off systems that never lose (among the systems still active): unbounded MLE.
  let peel = 0;
  for (;;) {
    const undefeated: number[] = [];
    for (let i = 0; i < k; i++) {
      if (!active[i] || !(W[i] > 0)) continue;
      let games = 0;
      for (let j = 0; j < k; j++) if (active[j] && j !== i) games += N[i * k + j];
      // Losses among active systems = games − wins (wins against peeled systems are impossible).
      if (games - W[i] <= 0) undefeated.push(i);
    }
    if (undefeated.length === 0) break;
    for (const i of undefeated) {
      active[i] = 0;
      strengths[i] = Infinity;
      tier[i] = peel;
    }
    peel++;
  }
  const idx: number[] = [];
  for (let i = 0; i < k; i++) if (active[i]) idx.push(i);
  for (const i of idx) tier[i] = peel;
  const m = idx.length;
  if (m === 0) return { strengths, iterations: 0, converged: true, tier };
  let anyWin = false;
  for (const i of idx) if (W[i] > 0) anyWin = true;
  if (!anyWin) {
    // Nobody left wins: those who lost (to peeled systems) get 0; systems with no decisive game
    // at all (tied with everyone) share the mass equally; with none of those, all stay 0.
    const undecided = idx.filter((i) => {
      let games = 0;
      for (let j = 0; j < k; j++) if (j !== i) games += N[i * k + j];
      return games === 0;
    });
    for (const i of undecided) strengths[i] = 1 / undecided.length;
    return { strengths, iterations: 0, converged: true, tier };
  }
  // Compact active sub-problem.
  const w = new Float64Array(m);
  const nn = new Float64Array(m * m);
  for (let a = 0; a < m; a++) {
    w[a] = W[idx[a]];
    for (let b = 0; b < m; b++) nn[a * m + b] = a === b ? 0 : N[idx[a] * k + idx[b]];
  }
  let lambda = new Float64Array(m);
  let next = new Float64Array(m);
  const init = opts.initial;
  let initSum = 0;
  for (let a = 0; a < m; a++) {
    const v = init ? init[idx[a]] : 1;
    lambda[a] = Number.isFinite(v) && v > 0 ? v : 0;
    if (w[a] > 0 && lambda[a] === 0) lambda[a] = 1 / m;
    initSum += lambda[a];
  }
  for (let a = 0; a < m; a++) lambda[a] /= initSum;
  let iterations = 0;
  let converged = false;
  let change = Infinity;
  while (iterations < maxIterations) {
    iterations++;
    let sum = 0;
    for (let a = 0; a < m; a++) {
      if (!(w[a] > 0)) {
        next[a] = 0;
        continue;
      }
      const la = lambda[a];
      let denom = 0;
      const row = a * m;
      for (let b = 0; b < m; b++) {
        const games = nn[row + b];
        if (games > 0) denom += games / (la + lambda[b]);
      }
      const v = w[a] / denom;
      next[a] = v;
      sum += v;
    }
    change = 0;
    for (let a = 0; a < m; a++) {
      const v = next[a] / sum;
      next[a] = v;
      const d = v - lambda[a];
      change += d * d;
    }
    const t = lambda;
    lambda = next;
    next = t;
    if (change < tolerance) {
      converged = true;
      break;
    }
  }
  if (!converged && (opts.throwOnNonConvergence ?? true)) throw new BradleyTerryConvergenceError(iterations, change);
  for (let a = 0; a < m; a++) strengths[idx[a]] = lambda[a];
  return { strengths, iterations, converged, tier };
}

/**
 * Bradley–Terry win probability p_ij = λ_i/(λ_i + λ_j) (Zhao thesis ch. 11 eq. 1).
 * Two zero strengths give 1/2; unbounded beats finite with probability 1; two unbounded
 * strengths compare by `tier` when given (lower tier always wins), else 1/2.
 * @example bradleyTerryProbability([0.0942, 0.657, 0.2488], 1, 2); // ≈ 0.725
 */
export function bradleyTerryProbability(strengths: ArrayLike<number>, i: number, j: number, tier?: ArrayLike<number>): number {
  const a = strengths[i];
  const b = strengths[j];
  if (a === Infinity && b === Infinity && tier && tier[i] !== tier[j]) return tier[i] < tier[j] ? 1 : 0;
  if (a === b) return 0.5;
  if (a === Infinity) return 1;
  if (b === Infinity) return 0;
  return a / (a + b);
}

/**
 * Order key for Bradley–Terry ranking: tier first (undefeated groups on top), then strength.
 * Returns a number where larger is better; finite strengths lie in [0, 1].
 */
export function bradleyTerryOrderKey(strength: number, tier: number, tiers: number): number {
  return Number.isFinite(strength) ? strength : 2 + (tiers - tier);
}
