import { bradleyTerryOrderKey, fitBradleyTerrySufficient, type BradleyTerryOptions } from './bradley-terry';
import { percentileOfSorted } from './descriptive';
import { bootstrapCounts, mulberry32 } from './prng';
import { rankDescending } from './ranks';
import { orientedScores, RankingInputError, type ScoreTable } from './score-table';

/** Pairwise outcomes counted once, O(k²n): the sufficient statistics every resample reweights. */
export interface PairwiseCounts {
  wins: Float64Array; // k×k, ω_ij
  beats: Float64Array[]; // beats[i][l] = #systems i strictly beats on instance l
  ties: Int32Array[]; // ties[i*k+j] (i<j): instances where i and j tie
  /** winIdx[i*k+j]: the first (up to {@link WIN_LIST_CAP}) instances where i beats j. */
  winIdx: Int32Array[];
}

/** Win-instance lists kept per ordered pair to test, per resample, whether i still beats j at least once. */
export const WIN_LIST_CAP = 64;

/**
 * Whether system i beats j on at least one instance drawn in a resample (`counts`): the
 * win-graph edge of the resampled data. Checks the kept win list first (early exit; a list of 64
 * instances is all undrawn with probability ≈ 0.37^64), scans all instances only when needed.
 */
export function beatsInResample(pc: PairwiseCounts, x: Float64Array[], counts: Int32Array, i: number, j: number): boolean {
  const k = x.length;
  const total = pc.wins[i * k + j];
  if (total === 0) return false;
  const list = pc.winIdx[i * k + j];
  for (let q = 0; q < list.length; q++) if (counts[list[q]] !== 0) return true;
  if (total <= list.length) return false;
  const xi = x[i];
  const xj = x[j];
  for (let l = 0; l < xi.length; l++) if (counts[l] !== 0 && xi[l] > xj[l]) return true;
  return false;
}

export function pairwiseCounts(x: Float64Array[]): PairwiseCounts {
  const k = x.length;
  const n = k ? x[0].length : 0;
  const wins = new Float64Array(k * k);
  const beats = x.map(() => new Float64Array(n));
  const ties: Int32Array[] = new Array(k * k);
  const winIdx: Int32Array[] = new Array(k * k);
  const buf = new Int32Array(n);
  const bufA = new Int32Array(WIN_LIST_CAP);
  const bufB = new Int32Array(WIN_LIST_CAP);
  for (let i = 0; i < k; i++) {
    const xi = x[i];
    const bi = beats[i];
    for (let j = i + 1; j < k; j++) {
      const xj = x[j];
      const bj = beats[j];
      let wij = 0;
      let wji = 0;
      let nt = 0;
      for (let l = 0; l < n; l++) {
        const a = xi[l];
        const b = xj[l];
        if (a > b) {
          if (wij < WIN_LIST_CAP) bufA[wij] = l;
          wij++;
          bi[l]++;
        } else if (b > a) {
          if (wji < WIN_LIST_CAP) bufB[wji] = l;
          wji++;
          bj[l]++;
        } else buf[nt++] = l;
      }
      wins[i * k + j] = wij;
      wins[j * k + i] = wji;
      ties[i * k + j] = buf.slice(0, nt);
      winIdx[i * k + j] = bufA.slice(0, Math.min(wij, WIN_LIST_CAP));
      winIdx[j * k + i] = bufB.slice(0, Math.min(wji, WIN_LIST_CAP));
    }
  }
  return { wins, beats, ties, winIdx };
}

export function sufficientFromWins(wins: Float64Array, k: number): { W: Float64Array; N: Float64Array } {
  const W = new Float64Array(k);
  const N = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (i === j) continue;
      W[i] += wins[i * k + j];
      N[i * k + j] = wins[i * k + j] + wins[j * k + i];
    }
  }
  return { W, N };
}


/** Per-resample aggregates (flat R×k, row r = resample r). */
export interface BootstrapAggregates {
  bMean: Float64Array;
  bMedian: Float64Array;
  bBt: Float64Array;
  bBtKey: Float64Array;
  nonConverged: number;
  /** Resamples whose win graph is not strongly connected (strengths then compare only within components). */
  noFiniteMle: number;
}

/**
 * Bootstrap over instances with one multinomial count vector c per resample shared by every
 * system: mean_i = Σ c_l x_il / n, the weighted median from the presorted order, and Bradley–Terry
 * refitted from W_i = Σ_l c_l·beats_il and N_ij = n − Σ_{l tied} c_l (docs/adr/0003). Equivalent to
 * resampling instance indices, in O(k·n + ties + k²·iterations) per resample instead of O(k²n).
 */
export function bootstrapAggregates(
  x: Float64Array[],
  pc: PairwiseCounts,
  sortIdx: Int32Array[],
  btInit: ArrayLike<number>,
  R: number,
  seed: number,
  btOpts: BradleyTerryOptions,
): BootstrapAggregates {
  const k = x.length;
  const n = x[0].length;
  const rng = mulberry32(seed);
  const counts = new Int32Array(n);
  const drawnIdx = new Int32Array(n);
  const drawnCount = new Float64Array(n);
  const bMean = new Float64Array(R * k);
  const bMedian = new Float64Array(R * k);
  const bBt = new Float64Array(R * k);
  const bBtKey = new Float64Array(R * k);
  const W = new Float64Array(k);
  const N = new Float64Array(k * k);
  let nonConverged = 0;
  let noFiniteMle = 0;
  const p1 = (n - 1) >> 1;
  const p2 = n >> 1;
  for (let r = 0; r < R; r++) {
    bootstrapCounts(n, rng, counts);
    // Instances drawn at least once (≈ 63%), as (index, count) lists: fewer multiply-adds.
    let m = 0;
    for (let l = 0; l < n; l++) {
      const c = counts[l];
      if (c !== 0) {
        drawnIdx[m] = l;
        drawnCount[m++] = c;
      }
    }
    for (let i = 0; i < k; i += 2) {
      // two systems per sweep: half the passes over the drawn list
      const i2 = i + 1 < k ? i + 1 : i;
      const x0 = x[i];
      const x1 = x[i2];
      const b0 = pc.beats[i];
      const b1 = pc.beats[i2];
      let s0 = 0;
      let s1 = 0;
      let w0 = 0;
      let w1 = 0;
      for (let q = 0; q < m; q++) {
        const l = drawnIdx[q];
        const c = drawnCount[q];
        s0 += c * x0[l];
        s1 += c * x1[l];
        w0 += c * b0[l];
        w1 += c * b1[l];
      }
      bMean[r * k + i] = s0 / n;
      bMean[r * k + i2] = s1 / n;
      W[i] = w0;
      W[i2] = w1;
    }
    for (let i = 0; i < k; i++) {
      // weighted median: walk the sorted order accumulating counts up to positions p1 and p2
      const xi = x[i];
      const idx = sortIdx[i];
      let t = 0;
      let cum = 0;
      for (; t < n; t++) {
        cum += counts[idx[t]];
        if (cum > p1) break;
      }
      const lo = xi[idx[t]];
      let hi = lo;
      if (cum <= p2) {
        for (t++; t < n; t++) {
          cum += counts[idx[t]];
          if (cum > p2) break;
        }
        hi = xi[idx[t]];
      }
      bMedian[r * k + i] = (lo + hi) / 2;
    }
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        const t = pc.ties[i * k + j];
        let tied = 0;
        for (let q = 0; q < t.length; q++) tied += counts[t[q]];
        N[i * k + j] = N[j * k + i] = n - tied;
      }
    }
    // Refits stop at the MM tolerance (no Newton polish): interval endpoints need no 1e-8 precision.
    const fit = fitBradleyTerrySufficient(W, N, k, { ...btOpts, initial: btInit, throwOnNonConvergence: false, polish: false }, (i, j) =>
      beatsInResample(pc, x, counts, i, j),
    );
    if (!fit.converged) nonConverged++;
    if (!fit.finiteMle) noFiniteMle++;
    for (let i = 0; i < k; i++) {
      bBt[r * k + i] = fit.strengths[i];
      bBtKey[r * k + i] = bradleyTerryOrderKey(fit.strengths[i], fit.tier[i], fit.tiers);
    }
  }
  return { bMean, bMedian, bBt, bBtKey, nonConverged, noFiniteMle };
}

/** Options for {@link bootstrapBradleyTerry}. */
export interface BootstrapOptions {
  /** Resamples, default 1,000. */
  resamples?: number;
  /** Seed, default 12345. */
  seed?: number;
  /** Options for the point fit and every refit. */
  bradleyTerry?: Pick<BradleyTerryOptions, 'tolerance' | 'maxIterations'>;
}

/** Bradley–Terry strengths with bootstrap intervals (see {@link bootstrapBradleyTerry}). */
export interface BradleyTerryBootstrap {
  systems: string[];
  strengths: number[];
  /** 2.5 and 97.5 percentiles of each strength over resamples (linear interpolation). */
  ci: [number, number][];
  ranks: number[];
  /** 2.5–97.5 percentile interval of each system's rank (floor/ceil to integers). */
  rankCi: [number, number][];
  nonConverged: number;
}

/**
 * Bradley–Terry fit with 95% bootstrap intervals of strengths and ranks: resample instances with
 * replacement (multinomial counts, seeded mulberry32), refit by MM (warm-started at the point
 * estimate), take the 2.5 and 97.5 percentiles. Instances are used in table order.
 * Reference: Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13 (percentile
 * intervals); Zhao thesis ch. 11 App. E for the fit.
 * @example bootstrapBradleyTerry(table, { resamples: 1000, seed: 12345 }).ci[0]; // [lo, hi]
 */
export function bootstrapBradleyTerry(table: ScoreTable, options: BootstrapOptions = {}): BradleyTerryBootstrap {
  const R = options.resamples ?? 1000;
  if (!Number.isInteger(R) || R < 1) throw new RankingInputError('resamples must be a positive integer');
  const x = orientedScores(table);
  const k = x.length;
  if (k < 2 || x[0].length < 1) throw new RankingInputError('need at least two systems and one instance');
  const n = x[0].length;
  const btOpts: BradleyTerryOptions = { tolerance: options.bradleyTerry?.tolerance ?? 1e-9, maxIterations: options.bradleyTerry?.maxIterations ?? 10000 };
  const pc = pairwiseCounts(x);
  const suff = sufficientFromWins(pc.wins, k);
  const fit = fitBradleyTerrySufficient(suff.W, suff.N, k, btOpts, (i, j) => pc.wins[i * k + j] > 0);
  const key = Array.from(fit.strengths, (s, i) => bradleyTerryOrderKey(s, fit.tier[i], fit.tiers));
  const sortIdx = x.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => row[a] - row[b]));
  const boot = bootstrapAggregates(x, pc, sortIdx, fit.strengths, R, options.seed ?? 12345, btOpts);
  const ci: [number, number][] = [];
  const rankCi: [number, number][] = [];
  const rankCols = Array.from({ length: k }, () => new Float64Array(R));
  for (let r = 0; r < R; r++) {
    const ranks = rankDescending(boot.bBtKey.subarray(r * k, (r + 1) * k), 1e-9);
    for (let i = 0; i < k; i++) rankCols[i][r] = ranks[i];
  }
  for (let i = 0; i < k; i++) {
    const col = new Float64Array(R);
    for (let r = 0; r < R; r++) col[r] = boot.bBt[r * k + i];
    col.sort();
    ci.push([percentileOfSorted(col, 2.5), percentileOfSorted(col, 97.5)]);
    rankCols[i].sort();
    rankCi.push([Math.floor(percentileOfSorted(rankCols[i], 2.5)), Math.ceil(percentileOfSorted(rankCols[i], 97.5))]);
  }
  return { systems: table.systems.slice(), strengths: Array.from(fit.strengths), ci, ranks: rankDescending(key, 1e-9), rankCi, nonConverged: boot.nonConverged };
}
