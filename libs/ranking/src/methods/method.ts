/* eslint-disable @typescript-eslint/no-non-null-assertion -- per-resample kernels (rank columns over R×k buffers), indices bounded by the loops over those buffers; bit-identical results checked by test/golden/analysis-fingerprint.ts */
/**
 * What a ranking method is: one plugin per file in this folder, listed once in `registry.ts`.
 * `analyseSystems` loops over the registry for values, intervals, ranks, rank intervals and
 * clusters; the leaderboard, its CSV, GraphQL, the web and the CLI read the method descriptors
 * ({@link describeMethod}) and the per-method values, so a new method needs no change there.
 */
import { percentileOfSorted } from '../descriptive';
import { rankDescending } from '../ranks';
import type { TrueSkillRating } from '../rating-systems';
import type { TestName } from '../tests/registry';

/** How a method's rank intervals are made. */
export type IntervalKind = 'bootstrap' | 'game order';

/** How a method's values relate to the metric: in its direction (flipped intervals when lower is better), or always larger-is-better. */
export type MethodDirection = 'metric' | 'higher is better';

/**
 * Estimates computed once for all methods in `analyseSystems`: they share the bootstrap draws
 * (docs/adr/0003-shared-resample-weights.md) and the Elo/TrueSkill game schedule. Canonical
 * system order; every array and R×k buffer (row-major, one row per resample) is oriented so that
 * larger is better.
 */
export interface SharedEstimates {
  means: readonly number[];
  bMean: Float64Array;
  medians: readonly number[];
  bMedian: Float64Array;
  bt: { strengths: ArrayLike<number>; key: readonly number[]; boot: Float64Array; bootKey: Float64Array };
  elo: { mean: readonly number[]; runs: readonly number[][] };
  trueskill: { mean: readonly TrueSkillRating[]; runs: readonly number[][] };
  /**
   * Win points over all instances and the other systems, a tie counting half: `points[i]` =
   * Σ_j wins_ij + ½·ties_ij; `boot` the same on each resample's draws (R×k), from the bootstrap's
   * resampled wins and ties (bootstrap.ts). Whole and half numbers: exact in float64.
   */
  winPoints: { points: readonly number[]; boot: Float64Array };
  /** With per-instance sufficient statistics only: corpus scores (input orientation), sacreBLEU intervals, R×k bootstrap scores (input orientation). */
  corpus: { scores: readonly number[]; intervals: readonly { mean: number; ci: number; lower: number; upper: number }[]; boot: Float64Array } | null;
}

/** What a method computes from. */
export interface MethodContext {
  /** Scores per system (canonical order: systems and instances sorted), larger is better. */
  x: readonly Float64Array[];
  k: number;
  n: number;
  /** Bootstrap resamples. */
  R: number;
  /** The analysis seed; the shared bootstrap draws use it as is (mulberry32(seed), bootstrapCounts per resample). */
  seed: number;
  /** 1 when larger input scores are better, −1 when smaller are. */
  sign: 1 | -1;
  shared: SharedEstimates;
}

/** A method's results per system (canonical order). */
export interface MethodEstimate {
  /** The value shown (input orientation for `metric` methods). */
  value: readonly number[];
  /** 95% interval of the value (null where the method has none). */
  interval: readonly ([number, number] | null)[];
  /** The key ranks and clusters follow: larger is better. */
  order: ArrayLike<number>;
  /** Relative tolerance within which {@link order} values tie (see rankDescending). */
  tolerance: number;
  /** 95% rank interval [best, worst]. */
  rankInterval: readonly [number, number][];
}

/** A ranking method. */
export interface RankingMethod {
  /** Stable key (JSON, CSV column prefix, GraphQL `method`). */
  key: string;
  /** Human name for tables. */
  label: string;
  /**
   * Where boards, CSV columns and tables list it: ascending, ties by key. The registry finds
   * methods by their files (ADR 0033), so the order is stated here, once per method.
   */
  order: number;
  /** One sentence: what the value is and where it comes from. */
  description: string;
  intervalKind: IntervalKind;
  direction: MethodDirection;
  /** The paired test behind its significance clusters by default; absent: the method has no clusters. */
  clusterTest?: TestName;
  /** Results, or null when the method does not apply to the input (corpus score without statistics). */
  estimate(ctx: MethodContext): MethodEstimate | null;
}

/** What consumers need to know about a method (serialisable). */
export interface MethodDescriptor {
  key: string;
  label: string;
  description: string;
  intervalKind: IntervalKind;
  direction: MethodDirection;
  /** Whether it has significance clusters. */
  clusters: boolean;
  /** The test that drove its clusters in this analysis (null: no clusters). */
  test: TestName | null;
}

/** A method's descriptor; `test`: the test behind its clusters in an analysis (null: none). */
export function describeMethod(method: RankingMethod, test: TestName | null): MethodDescriptor {
  const { key, label, description, intervalKind, direction } = method;
  return { key, label, description, intervalKind, direction, clusters: test !== null, test };
}

/** Percentile interval 2.5–97.5 of a sorted sample. */
export const percentileInterval = (sorted: Float64Array): [number, number] => [percentileOfSorted(sorted, 2.5), percentileOfSorted(sorted, 97.5)];

/** Column i of a row-major R×k buffer, sorted ascending. */
export function sortedColumn(buf: Float64Array, k: number, R: number, i: number): Float64Array {
  const out = new Float64Array(R);
  for (let r = 0; r < R; r++) out[r] = buf[r * k + i]!;
  return out.sort();
}

/** Rank interval of a sorted column of ranks: [⌊2.5th percentile⌋, ⌈97.5th percentile⌉]. */
export const rankIntervalOfSorted = (col: Float64Array): [number, number] => [Math.floor(percentileOfSorted(col, 2.5)), Math.ceil(percentileOfSorted(col, 97.5))];

/** 95% bootstrap rank intervals from an R×k buffer of larger-is-better keys (ranks per resample with `tolerance`). */
export function bootstrapRankIntervals(buf: Float64Array, k: number, R: number, tolerance: number): [number, number][] {
  const cols = Array.from({ length: k }, () => new Float64Array(R));
  for (let r = 0; r < R; r++) {
    rankDescending(buf.subarray(r * k, (r + 1) * k), tolerance).forEach((rank, i) => (cols[i]![r] = rank));
  }
  return cols.map((c) => rankIntervalOfSorted(c.sort()));
}

/** Rank intervals over random game orders (Elo, TrueSkill): order sensitivity, not sampling uncertainty. */
export function orderRankIntervals(runs: readonly (readonly number[])[], k: number): [number, number][] {
  const cols = Array.from({ length: k }, () => new Float64Array(runs.length));
  runs.forEach((run, o) => rankDescending(run, 1e-9).forEach((r, i) => (cols[i]![o] = r)));
  return cols.map((c) => rankIntervalOfSorted(c.sort()));
}

/** Flips an interval of oriented values back to the input orientation. */
export const flipInterval = (sign: 1 | -1, iv: [number, number]): [number, number] => (sign === 1 ? iv : [-iv[1] + 0, -iv[0] + 0]);
