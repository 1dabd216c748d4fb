/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the corpus bootstrap / approximate-randomisation loops over flat sufficient statistics, indices bounded by R·n·width loops; a check per access would cost throughput (npm run bench:ranking-scale); bit-identical results checked by npx jest libs/ranking */
import { column, columnDifferencesInto } from './analyse-kernels';
import { at } from './checked';
import { bootstrapCounts, mulberry32 } from './prng';
import { bootstrapPValue, fillSwapMask, type CorpusFromStats } from './resampling';
import { RankingInputError } from './score-table';

/**
 * sacreBLEU's "mean ± CI" of bootstrap scores (`significance.estimate_ci`): sort the R scores,
 * lower = s[⌊R/40⌋], upper = s[R − ⌊R/40⌋ − 1]; `mean` = mean of the bootstrap scores (not the
 * corpus score), `ci` = (upper − lower)/2, the half-width it prints after ±.
 * @example sacrebleuInterval([1, 2, 3, 4]); // { mean: 2.5, ci: 1.5, lower: 1, upper: 4 }
 */
export function sacrebleuInterval(samples: ArrayLike<number>): { mean: number; ci: number; lower: number; upper: number } {
  const s = Float64Array.from(samples).sort();
  const R = s.length;
  if (R === 0) return { mean: NaN, ci: NaN, lower: NaN, upper: NaN };
  let m = 0;
  for (const v of s) m += v;
  const lo = Math.floor(R / 40);
  const lower = s[lo] ?? NaN;
  const upper = s[R - lo - 1] ?? NaN;
  return { mean: m / R, ci: 0.5 * (upper - lower), lower, upper };
}

/** Typed arrays accepted for per-instance sufficient statistics (integer counts fit Int32/Uint16 exactly). */
export type StatsArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array;

/**
 * Per-instance sufficient statistics of every system in flat form: `data[s]` holds system s's
 * rows (n × width, row-major). Structured-cloneable, and each array's buffer transferable, so a
 * worker thread can receive it without copying; memory 8·k·n·width bytes for Float64Array (half
 * or a quarter with Int32Array/Uint16Array counts) instead of one JS array per instance.
 */
export interface FlatCorpusStats {
  width: number;
  data: readonly StatsArray[];
}

/** Per-instance statistics either as rows (stats[system][instance] = number[]) or {@link FlatCorpusStats}. */
export type CorpusStatsInput = readonly (readonly (readonly number[])[])[] | FlatCorpusStats;

/** Whether `stats` is the flat form. */
export function isFlatCorpusStats(stats: CorpusStatsInput): stats is FlatCorpusStats {
  return !Array.isArray(stats);
}

/**
 * Checks shape and returns flat statistics (rows are copied into one Float64Array per system;
 * flat input is used as is). `n` = expected instances per system.
 */
export function flatCorpusStats(stats: CorpusStatsInput, n: number, label: (s: number) => string = String, allowAbsent = false): FlatCorpusStats {
  if (isFlatCorpusStats(stats)) {
    const { width, data } = stats;
    if (!Number.isInteger(width) || width < 0) throw new RankingInputError('corpus statistics width must be a non-negative integer');
    data.forEach((f, s) => {
      // `allowAbsent`: an empty array stands for statistics the caller left out (analyseSystems checks them against its memo)
      if (f.length !== n * width && !(allowAbsent && f.length === 0)) throw new RankingInputError(`corpus statistics for system ${label(s)} cover ${width ? f.length / width : 0} instances, expected ${n}`);
    });
    return { width, data };
  }
  const width = stats[0]?.[0]?.length ?? 0;
  const data = stats.map((rows, s) => {
    if (rows.length !== n) throw new RankingInputError(`corpus statistics for system ${label(s)} cover ${rows.length} instances, expected ${n}`);
    const out = new Float64Array(n * width);
    rows.forEach((row, l) => {
      if (row.length !== width) throw new RankingInputError('corpus statistics rows must all have the same length');
      out.set(row, l * width);
    });
    return out;
  });
  return { width, data };
}

/**
 * The scorer behind every resampled corpus score: copies a row of (weighted) column sums into
 * one reused array and calls `corpusFromStats` on it as a single row.
 */
export function corpusScorer(corpusFromStats: CorpusFromStats, width: number): (sum: ArrayLike<number>) => number {
  const acc = new Array<number>(width).fill(0);
  const wrap = [acc];
  return (sum) => {
    for (let c = 0; c < width; c++) acc[c] = sum[c]!;
    return corpusFromStats(wrap);
  };
}

/** Options for {@link pairedCorpusResampling}. */
export interface CorpusResamplingOptions {
  /** Bootstrap resamples. Default 1,000 (sacreBLEU's paired-bs default). */
  bootstrapResamples?: number;
  /** Approximate-randomisation trials. Default 10,000 (sacreBLEU's paired-ar default); 0 skips AR. */
  arTrials?: number;
  /** Seed (mulberry32): bootstrap = seed, AR = seed + 1. Default 12345 (sacreBLEU's SACREBLEU_SEED). */
  seed?: number;
}

/** Result of {@link pairedCorpusResampling}; systems in input order, pairs (i < j) flat i·k + j. */
export interface CorpusResampling {
  /** Corpus score of each system from its summed statistics. */
  scores: number[];
  /** Each system's statistics summed over all instances (canonical order): what `scores` scored. */
  totals: Float64Array[];
  /** Bootstrap corpus scores, flat R×k (row r = resample r, shared by all systems). */
  boot: Float64Array;
  /** sacreBLEU's mean ± CI of each system's bootstrap scores, with the 2.5/97.5 order statistics. */
  intervals: { mean: number; ci: number; lower: number; upper: number }[];
  /** Paired bootstrap p (sacreBLEU paired-bs) for pair (i, j). */
  bootstrapP(i: number, j: number): number;
  /** Paired approximate randomisation p (sacreBLEU paired-ar) for pair (i, j); NaN when skipped. */
  arP(i: number, j: number): number;
  bootstrapResamples: number;
  arTrials: number;
}

/**
 * Paired bootstrap resampling and paired approximate randomisation of a corpus-level score for
 * every pair of systems, from per-instance sufficient statistics — sacreBLEU's `--paired-bs`
 * and `--paired-ar` (significance.py), for all pairs at once.
 *
 * Bootstrap (Koehn 2004): R resamples of the n instances with replacement, the same resample for
 * every system; each system's statistics are summed per resample and scored. For a pair, with
 * δ_r = score_r(a) − score_r(b): s_r = |δ_r| − mean_r |δ_r|, p = (#{s_r ≥ |observed|} + 1)/(R + 1).
 * Per system, sacreBLEU's "mean ± CI" ({@link sacrebleuInterval}).
 * Approximate randomisation (Riezler & Maxwell 2005; multeval): in each trial every instance's
 * statistics are swapped between the two systems with probability 1/2 (one mask per trial,
 * shared by all pairs, as sacreBLEU reuses its seeded masks for every system);
 * p = (#{|score(a′) − score(b′)| ≥ |observed|} + 1)/(trials + 1).
 * sacreBLEU counts `>` where this counts `≥` (with a 1e-12 relative slack): the same except on
 * exact ties, where `≥` is the valid permutation p-value (a system against itself gets p = 1).
 * Its RNG (NumPy default_rng) is not reproduced; results agree within Monte-Carlo error.
 * Cost: O(R·k·n·d) for the bootstrap, O(T·(k·n·d + k²·d)) for AR, flat typed arrays.
 * @example pairedCorpusResampling([statsA, statsB], (rows) => rows[0][0] / rows[0][1]).bootstrapP(0, 1);
 */
export function pairedCorpusResampling(stats: CorpusStatsInput, corpusFromStats: CorpusFromStats, options: CorpusResamplingOptions = {}): CorpusResampling {
  const k = isFlatCorpusStats(stats) ? stats.data.length : stats.length;
  const R = options.bootstrapResamples ?? 1000;
  const T = options.arTrials ?? 10000;
  const seed = options.seed ?? 12345;
  if (!Number.isInteger(R) || R < 1) throw new RankingInputError('bootstrap resamples must be a positive integer');
  if (!Number.isInteger(T) || T < 0) throw new RankingInputError('AR trials must be a non-negative integer');
  if (k === 0) throw new RankingInputError('no systems');
  const n = isFlatCorpusStats(stats) ? (stats.width > 0 ? (stats.data[0]?.length ?? 0) / stats.width : 0) : (stats[0]?.length ?? 0);
  const flat = flatCorpusStats(stats, n);
  const d = flat.width;
  const scoreOf = corpusScorer(corpusFromStats, d);

  // Bootstrap: one multinomial count vector per resample, drawn instances as (index, count) lists.
  const rng = mulberry32(seed >>> 0);
  const counts = new Int32Array(n);
  const drawnIdx = new Int32Array(n);
  const drawnCount = new Float64Array(n);
  const boot = new Float64Array(R * k);
  const sum = new Float64Array(d);
  for (let r = 0; r < R; r++) {
    bootstrapCounts(n, rng, counts);
    let m = 0;
    for (let l = 0; l < n; l++) {
      if (counts[l] !== 0) {
        drawnIdx[m] = l;
        drawnCount[m++] = counts[l]!;
      }
    }
    flat.data.forEach((f, i) => {
      sum.fill(0);
      for (let q = 0; q < m; q++) {
        const base = drawnIdx[q]! * d;
        const w = drawnCount[q]!;
        for (let c = 0; c < d; c++) sum[c]! += w * f[base + c]!;
      }
      boot[r * k + i] = scoreOf(sum);
    });
  }
  return corpusTestsFromBootstrap(flat, null, scoreOf, boot, R, T, seed);
}

/**
 * One system's statistics summed over its n instances, in canonical order (`order[l]` = row of
 * canonical instance l; null: the same): the corpus score's sums, added in this one order
 * wherever an analysis or a memo sums them (so kept totals are the same bits).
 */
export function corpusTotalsOf(f: StatsArray, n: number, d: number, order: Int32Array | null): Float64Array {
  const t = new Float64Array(d);
  for (let l = 0; l < n; l++) {
    const base = (order ? order[l]! : l) * d;
    for (let c = 0; c < d; c++) t[c]! += f[base + c]!;
  }
  return t;
}

/**
 * Everything of {@link pairedCorpusResampling} after the bootstrap draws: corpus scores,
 * intervals and paired-bs p from the bootstrap scores `boot` (flat R×k), and paired-ar with T
 * trials (seed + 1). `order[l]` = row of canonical instance l in `flat` (null: identity), so the
 * caller's statistics are read in place, never copied into canonical order. `knownTotals[i]`,
 * when given, is system i's summed statistics as an earlier analysis summed them (its statistics
 * may then be empty); it needs T = 0.
 */
export function corpusTestsFromBootstrap(
  flat: FlatCorpusStats,
  order: Int32Array | null,
  scoreOf: (sum: ArrayLike<number>) => number,
  boot: Float64Array,
  R: number,
  T: number,
  seed: number,
  knownTotals: readonly (Float64Array | undefined)[] = [],
): CorpusResampling {
  const k = flat.data.length;
  const d = flat.width;
  const n = d > 0 ? Math.max(0, ...flat.data.map((f) => f.length)) / d : 0;
  if (T > 0 && knownTotals.some((t) => t !== undefined)) throw new RankingInputError('corpus AR needs every system\'s statistics');
  const totals = flat.data.map((f, i) => knownTotals[i] ?? corpusTotalsOf(f, n, d, order));
  const scores = totals.map((t) => scoreOf(t));
  const intervals = scores.map((_, i) => sacrebleuInterval(column(boot, k, i, R)));
  const bootP = new Float64Array(k * k).fill(NaN);
  const diffs = new Float64Array(R);
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      columnDifferencesInto(diffs, boot, k, i, j);
      bootP[i * k + j] = bootstrapPValue(diffs, at(scores, i) - at(scores, j));
    }
  }

  // Approximate randomisation: one swap mask per trial; masked sums per system, then every pair.
  const arExceed = new Int32Array(k * k);
  if (T > 0) {
    const arRng = mulberry32((seed + 1) >>> 0);
    const mask = new Float64Array(n);
    const swappedIdx = new Int32Array(n);
    const S = new Float64Array(k * d);
    const a2 = new Float64Array(d);
    const b2 = new Float64Array(d);
    const obs = new Float64Array(k * k);
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) obs[i * k + j] = Math.abs(at(scores, i) - at(scores, j));
    for (let t = 0; t < T; t++) {
      fillSwapMask(mask, arRng);
      let m = 0;
      for (let l = 0; l < n; l++) if (mask[l] !== 0) swappedIdx[m++] = order ? order[l]! : l;
      S.fill(0);
      flat.data.forEach((f, i) => {
        const off = i * d;
        for (let q = 0; q < m; q++) {
          const base = swappedIdx[q]! * d;
          for (let c = 0; c < d; c++) S[off + c]! += f[base + c]!;
        }
      });
      for (let i = 0; i < k; i++) {
        const ti = at(totals, i);
        for (let j = i + 1; j < k; j++) {
          const tj = at(totals, j);
          for (let c = 0; c < d; c++) {
            const si = S[i * d + c]!;
            const sj = S[j * d + c]!;
            a2[c] = ti[c]! - si + sj;
            b2[c] = tj[c]! - sj + si;
          }
          const stat = Math.abs(scoreOf(a2) - scoreOf(b2));
          const o = obs[i * k + j]!;
          if (stat >= o - 1e-12 * Math.max(1, o)) arExceed[i * k + j]!++;
        }
      }
    }
  }
  const lohi = (i: number, j: number) => Math.min(i, j) * k + Math.max(i, j);
  return {
    scores,
    totals,
    boot,
    intervals,
    bootstrapP: (i, j) => (i === j ? 1 : at(bootP, lohi(i, j))),
    arP: (i, j) => (T === 0 ? NaN : i === j ? 1 : (at(arExceed, lohi(i, j)) + 1) / (T + 1)),
    bootstrapResamples: R,
    arTrials: T,
  };
}
