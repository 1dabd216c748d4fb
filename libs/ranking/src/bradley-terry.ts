/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the win-matrix sweep and the Bradley–Terry MM/Newton iterations (run for every bootstrap refit), indices bounded by loops over k, m and n; a check per access would cost throughput (npm run bench:ranking-scale); bit-identical results checked by npx jest libs/ranking */
import { at } from './checked';
import { orientedScores, RankingInputError, type ScoreTable } from './score-table';
import { winGraphComponents } from './win-graph';

export { winGraphComponents, type WinGraphStructure } from './win-graph';

/** Options for {@link fitBradleyTerry}. */
export interface BradleyTerryOptions {
  /** MM stops when ‖λ^(t+1) − λ^(t)‖² < tolerance. Default 1e-9 (Zhao thesis, App. E); Newton steps then polish to the exact MLE. */
  tolerance?: number;
  /** MM iteration cap per component. Default 10,000. */
  maxIterations?: number;
  /** Throw {@link BradleyTerryConvergenceError} at the cap (default true) instead of returning `converged: false`. */
  throwOnNonConvergence?: boolean;
  /** Starting strengths (e.g. a previous fit, to warm-start bootstrap refits). Default uniform. */
  initial?: ArrayLike<number>;
  /** Newton polish after MM (default true): strengths agree with the exact MLE to ~1e-14. */
  polish?: boolean;
}

/** Result of a Bradley–Terry fit. */
export interface BradleyTerryFit {
  /**
   * λ within each strongly connected component of the win graph, normalised to sum 1 per
   * component. With one component (`finiteMle`) these are the usual MLE strengths; otherwise
   * strengths compare only within a component and components are ordered by `tier`.
   */
  strengths: number[];
  iterations: number;
  converged: boolean;
  /** Dominance tier of each system's component: 0 = no other component beats it; t = longest chain of t components above. */
  tier: number[];
  /** Component id of each system (ordered by tier, then by first member). */
  component: number[];
  /**
   * True when the win graph is strongly connected: the maximum-likelihood estimate exists, is
   * finite and unique. False when some group of systems never loses to the rest (a system that
   * never wins, never loses, or a group that beats another group on every decisive instance), or
   * the comparison graph is disconnected: then no finite MLE exists.
   */
  finiteMle: boolean;
  /** dominates[c][d]: a chain of wins leads from component c to component d. */
  dominates: boolean[][];
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
export function countWins(table: ScoreTable<ArrayLike<number>>): number[][] {
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
  const n = x[0]?.length ?? 0;
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
        const a = xi![l]!;
        const y0 = x0![l]!;
        const y1 = x1![l]!;
        const y2 = x2![l]!;
        const y3 = x3![l]!;
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
        const a = xi![l]!;
        const b = xj![l]!;
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
 * Fits Bradley–Terry strengths to a win matrix by the minorisation–maximisation (MM) algorithm,
 * honestly about when no maximum exists.
 *
 * Model: P(i beats j) = λ_i/(λ_i + λ_j). Log-likelihood L(λ) = Σ_ij ω_ij log λ_i − ω_ij log(λ_i + λ_j).
 * Update: λ_i ← W_i / Σ_{j≠i} (ω_ij + ω_ji)/(λ_i + λ_j), W_i = Σ_j ω_ij; then λ ← λ/Σλ;
 * stop when ‖Δλ‖² < 1e-9 (Zhao thesis ch. 11, App. E, eqs. 2–4; Hunter 2004, Ann. Stat. 32:384),
 * then Newton steps to the exact MLE.
 *
 * Existence (Zermelo 1929; Ford 1957; Hunter 2004 Assumption 1): a finite MLE exists iff the win
 * graph (i → j when ω_ij > 0) is strongly connected. Otherwise the graph is split into strongly
 * connected components, each fitted alone (strengths sum to 1 per component), and components are
 * ranked by dominance (`tier`); `finiteMle` is false. Two systems where A always wins: two
 * components, A tier 0, B tier 1, each strength 1.
 * @example fitBradleyTerry([[0, 1, 1], [4, 0, 4], [4, 1, 0]]).strengths; // ≈ [0.0942, 0.6570, 0.2488] (paper Fig. 1)
 */
export function fitBradleyTerry(wins: number[][], opts: BradleyTerryOptions = {}): BradleyTerryFit {
  const k = wins.length;
  const W = new Float64Array(k);
  const N = new Float64Array(k * k);
  for (const [i, row] of wins.entries()) {
    if (row.length !== k) throw new RankingInputError(`win matrix row ${i} has ${row.length} entries, expected ${k}`);
    for (const [j, w] of row.entries()) {
      if (!(w >= 0) || !Number.isFinite(w)) throw new RankingInputError(`win count [${i}][${j}] must be a finite number ≥ 0`);
      if (i === j) continue;
      W[i] = at(W, i) + w;
      N[i * k + j] = at(N, i * k + j) + w;
      N[j * k + i] = at(N, j * k + i) + w;
    }
  }
  const fit = fitBradleyTerrySufficient(W, N, k, opts, (i, j) => at(at(wins, i), j) > 0);
  return {
    strengths: Array.from(fit.strengths),
    iterations: fit.iterations,
    converged: fit.converged,
    tier: Array.from(fit.tier),
    component: Array.from(fit.component),
    finiteMle: fit.finiteMle,
    dominates: fit.dominates,
  };
}

/**
 * MM fit from sufficient statistics: W_i (wins of i) and N_ij = ω_ij + ω_ji (decisive games
 * between i and j, symmetric, flat k×k). Used by bootstrap refits. See {@link fitBradleyTerry}.
 *
 * The win graph (edge i → j when i beat j at least once) is split into strongly connected
 * components (Tarjan 1972). The maximum-likelihood estimate exists and is unique (up to scale)
 * exactly when there is one component (Hunter 2004, Assumption 1; Zermelo 1929). Otherwise each
 * component is fitted on its own games and normalised to sum 1; components are ordered by
 * dominance: `tier` = length of the longest chain of components that beat this one (0 = beaten by
 * no other component). MM runs until ‖Δλ‖² < tolerance (thesis default 1e-9), then Newton steps
 * on the log-likelihood in log λ polish the fit to the exact MLE (|Δ| < 1e-14).
 * @example fitBradleyTerrySufficient(Float64Array.of(3, 1), Float64Array.of(0, 4, 4, 0), 2).strengths; // [0.75, 0.25]
 */
export function fitBradleyTerrySufficient(
  W: Float64Array,
  N: Float64Array,
  k: number,
  opts: BradleyTerryOptions = {},
  beat: (i: number, j: number) => boolean = (i, j) => k === 2 && N[i * k + j]! > 0 && W[i]! > 0,
): SufficientFit {
  const tolerance = opts.tolerance ?? 1e-9;
  const maxIterations = opts.maxIterations ?? 10000;
  const strengths = new Float64Array(k);
  const structure = winGraphComponents(k, (i, j) => N[i * k + j]! > 0 && beat(i, j));
  const { component, tier, members } = structure;
  let iterations = 0;
  let converged = true;
  let lastChange = 0;
  for (const idx of members) {
    const m = idx.length;
    const [only] = idx;
    if (m === 1 && only !== undefined) {
      strengths[only] = 1;
      continue;
    }
    // Compact sub-problem: wins of each member against members only.
    const w = new Float64Array(m);
    const nn = new Float64Array(m * m);
    for (let a = 0; a < m; a++) {
      const ia = idx[a]!;
      for (let b = 0; b < m; b++) {
        if (a === b) continue;
        nn[a * m + b] = N[ia * k + idx[b]!]!;
      }
    }
    // Wins inside the component: W_i minus wins against other components. Between components
    // games go one way only (else they would be one component), so those wins are N_ij.
    for (let a = 0; a < m; a++) {
      let outside = 0;
      const i = idx[a]!;
      for (let j = 0; j < k; j++) if (j !== i && component[j] !== component[i] && N[i * k + j]! > 0 && beat(i, j)) outside += N[i * k + j]!;
      w[a] = W[i]! - outside;
    }
    let lambda = new Float64Array(m);
    let next = new Float64Array(m);
    const init = opts.initial;
    let initSum = 0;
    for (let a = 0; a < m; a++) {
      const v = init ? init[idx[a]!] : 1;
      lambda[a] = v !== undefined && Number.isFinite(v) && v > 0 ? v : 1 / m;
      initSum += lambda[a]!;
    }
    for (let a = 0; a < m; a++) lambda[a]! /= initSum;
    let it = 0;
    let ok = false;
    let change = Infinity;
    while (it < maxIterations) {
      it++;
      let sum = 0;
      for (let a = 0; a < m; a++) {
        const la = lambda[a]!;
        let denom = 0;
        const row = a * m;
        for (let b = 0; b < m; b++) {
          const games = nn[row + b]!;
          if (games > 0) denom += games / (la + lambda[b]!);
        }
        const v = w[a]! / denom;
        next[a] = v;
        sum += v;
      }
      change = 0;
      for (let a = 0; a < m; a++) {
        const v = next[a]! / sum;
        next[a] = v;
        const d = v - lambda[a]!;
        change += d * d;
      }
      const t = lambda;
      lambda = next;
      next = t;
      if (change < tolerance) {
        ok = true;
        break;
      }
    }
    if (ok && opts.polish !== false) newtonPolish(w, nn, m, lambda);
    iterations = Math.max(iterations, it);
    if (!ok) {
      converged = false;
      lastChange = change;
    }
    idx.forEach((system, a) => (strengths[system] = lambda[a]!));
  }
  if (!converged && (opts.throwOnNonConvergence ?? true)) throw new BradleyTerryConvergenceError(iterations, lastChange);
  return { strengths, iterations, converged, tier, component, finiteMle: members.length === 1, dominates: structure.dominates, tiers: structure.tiers };
}

/** Result of {@link fitBradleyTerrySufficient}; see {@link BradleyTerryFit}. */
export interface SufficientFit {
  strengths: Float64Array;
  iterations: number;
  converged: boolean;
  tier: Int32Array;
  component: Int32Array;
  finiteMle: boolean;
  /** dominates[c][d]: a chain of wins leads from component c to component d (c ≠ d). */
  dominates: boolean[][];
  /** Largest tier + 1. */
  tiers: number;
}

/**
 * Newton–Raphson on the log-likelihood in θ = log λ with θ_last fixed (the likelihood is
 * invariant to scale): g_a = w_a − Σ_b n_ab λ_a/(λ_a+λ_b), H_ab = n_ab p_ab p_ba (a ≠ b),
 * H_aa = −Σ_b n_ab p_ab p_ba. Steps are halved while the log-likelihood falls. Normalises to Σλ = 1.
 */
function newtonPolish(w: Float64Array, nn: Float64Array, m: number, lambda: Float64Array): void {
  const d = m - 1;
  const theta = Float64Array.from(lambda, (v) => Math.log(v));
  const loglik = (th: Float64Array): number => {
    let ll = 0;
    for (let a = 0; a < m; a++) {
      ll += w[a]! * th[a]!;
      for (let b = a + 1; b < m; b++) {
        const g = nn[a * m + b]!;
        if (g > 0) {
          const mx = Math.max(th[a]!, th[b]!);
          ll -= g * (mx + Math.log(Math.exp(th[a]! - mx) + Math.exp(th[b]! - mx)));
        }
      }
    }
    return ll;
  };
  const H = new Float64Array(d * d);
  const g = new Float64Array(d);
  for (let iter = 0; iter < 50; iter++) {
    H.fill(0);
    g.fill(0);
    for (let a = 0; a < m; a++) {
      for (let b = 0; b < m; b++) {
        if (a === b) continue;
        const games = nn[a * m + b]!;
        if (!(games > 0)) continue;
        const pab = 1 / (1 + Math.exp(theta[b]! - theta[a]!));
        const v = games * pab * (1 - pab);
        if (a < d) {
          g[a]! -= games * pab;
          H[a * d + a]! -= v;
          if (b < d) H[a * d + b]! += v;
        }
      }
      if (a < d) g[a]! += w[a]!;
    }
    const step = solveLinear(H, g, d); // H·s = g  →  θ ← θ − s
    if (!step) return;
    let maxStep = 0;
    for (let a = 0; a < d; a++) maxStep = Math.max(maxStep, Math.abs(step[a]!));
    const base = loglik(theta);
    let t = 1;
    const trial = new Float64Array(m);
    for (let half = 0; half < 30; half++) {
      for (let a = 0; a < d; a++) trial[a] = theta[a]! - t * step[a]!;
      trial[d] = theta[d]!;
      if (loglik(trial) >= base - 1e-12 * Math.abs(base)) break;
      t /= 2;
    }
    theta.set(trial);
    if (maxStep * t < 1e-14) break;
  }
  let mx = -Infinity;
  for (let a = 0; a < m; a++) mx = Math.max(mx, theta[a]!);
  let sum = 0;
  for (let a = 0; a < m; a++) {
    const v = Math.exp(theta[a]! - mx);
    lambda[a] = v;
    sum += v;
  }
  for (let a = 0; a < m; a++) lambda[a]! /= sum;
}

/** Gaussian elimination with partial pivoting; null when singular. Does not modify A or b. */
function solveLinear(A0: Float64Array, b0: Float64Array, d: number): Float64Array | null {
  const A = Float64Array.from(A0);
  const b = Float64Array.from(b0);
  for (let c = 0; c < d; c++) {
    let p = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(A[r * d + c]!) > Math.abs(A[p * d + c]!)) p = r;
    if (!(Math.abs(A[p * d + c]!) > 1e-300)) return null;
    if (p !== c) {
      for (let q = 0; q < d; q++) {
        const t = A[c * d + q]!;
        A[c * d + q] = A[p * d + q]!;
        A[p * d + q] = t;
      }
      const t = b[c]!;
      b[c] = b[p]!;
      b[p] = t;
    }
    for (let r = c + 1; r < d; r++) {
      const f = A[r * d + c]! / A[c * d + c]!;
      if (f === 0) continue;
      for (let q = c; q < d; q++) A[r * d + q]! -= f * A[c * d + q]!;
      b[r]! -= f * b[c]!;
    }
  }
  const x = new Float64Array(d);
  for (let r = d - 1; r >= 0; r--) {
    let s = b[r];
    for (let q = r + 1; q < d; q++) s! -= A[r * d + q]! * x[q]!;
    x[r] = s! / A[r * d + r]!;
  }
  return x;
}

/**
 * Bradley–Terry win probability p_ij = λ_i/(λ_i + λ_j) (Zhao thesis ch. 11 eq. 1) for systems in
 * the same component. With the component structure given: 1 when i's component dominates j's
 * (a chain of wins and no way back), 0 the other way round, NaN when neither reaches the other
 * (no information: disconnected comparison graph).
 * @example bradleyTerryProbability([0.0942, 0.657, 0.2488], 1, 2); // ≈ 0.725
 */
export function bradleyTerryProbability(
  strengths: ArrayLike<number>,
  i: number,
  j: number,
  structure?: { component: ArrayLike<number>; dominates: boolean[][] },
): number {
  if (structure) {
    const ci = at(structure.component, i, 'component');
    const cj = at(structure.component, j, 'component');
    if (ci !== cj) return at(structure.dominates, ci)[cj] ? 1 : at(structure.dominates, cj)[ci] ? 0 : NaN;
  }
  const a = at(strengths, i, 'strengths');
  const b = at(strengths, j, 'strengths');
  if (a === b) return 0.5;
  return a / (a + b);
}

/**
 * Order key for Bradley–Terry ranking, larger is better: tier first (dominant components on
 * top), then the within-component strength (in (0, 1]). Components in the same tier that never
 * met are incomparable; the key then orders them by strength, a convention (`finiteMle` false).
 */
export function bradleyTerryOrderKey(strength: number, tier: number, tiers: number): number {
  return 2 * (tiers - tier) + strength;
}
