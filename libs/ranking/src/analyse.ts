import { column, gather, pairWorkspace } from './analyse-kernels';
import { adoptMemoContext, pairMemoKey, type AnalysisMemo, type MemoUse, type PairMemo, type SystemMemo } from './analysis-memo';
import { bradleyTerryOrderKey, bradleyTerryProbability, fitBradleyTerrySufficient, type BradleyTerryOptions } from './bradley-terry';
import { clusters } from './clusters';
import { adjustPValues, type Correction } from './correction';
import { argsortAscending, mean } from './descriptive';
import { bootstrapAggregates, pairwiseCounts, pairwiseCountsKept, sufficientFromWins } from './bootstrap';
import { rankDescending } from './ranks';
import { exactMedianSorted, medianBySelection } from './selection';
import { defaultGameOrders, eloFromSchedule, gameSchedule, MAX_GAMES_PER_ORDER, trueSkillFromSchedule } from './rating-systems';
import {
  corpusScorer,
  corpusTestsFromBootstrap,
  flatCorpusStats,
  isFlatCorpusStats,
  type CorpusResampling,
  type CorpusStatsInput,
  type FlatCorpusStats,
} from './corpus-resampling';
import type { CorpusFromStats } from './resampling';
import { orientedScores, RankingInputError, type ScoreTable } from './score-table';
import { at } from './checked';
import { describeMethod, type MethodContext, type MethodDescriptor, type MethodEstimate, type SharedEstimates } from './methods/method';
import { RANKING_METHODS } from './methods/registry';
import { SENTENCE_TESTS, SIGNIFICANCE_TESTS, TEST_LABELS, type CorpusTestName, type SentenceTestName, type TestName } from './tests/registry';
import type { PairOutcome, TestSetup } from './tests/test';
import { WILCOXON_ALL_PAIRS_CELLS } from './tests/wilcoxon';

export { TEST_LABELS, type TestName };

/** The aggregations that get significance clusters (`corpus` only with sufficient statistics). */
export type ClusteredAggregation = 'mean' | 'median' | 'bt' | 'corpus';

/**
 * Tests that drive clusters when {@link AnalyseOptions.test} is not given (Zhao thesis ch. 11
 * §3.2; Koehn 2004): each clustered method's own `clusterTest` (methods/*.ts).
 */
export const DEFAULT_CLUSTER_TESTS: Readonly<Record<ClusteredAggregation, TestName>> = Object.fromEntries(
  RANKING_METHODS.flatMap((m) => (m.clusterTest ? [[m.key, m.clusterTest]] : [])),
) as Record<ClusteredAggregation, TestName>;

/**
 * The one cluster definition used everywhere (WMT style, Bojar et al. 2013 §3.3, made strict):
 * systems are sorted by the aggregation; a new cluster starts below a position only when every
 * system above it is significantly better than every system below it (corrected p < α, the
 * test's direction agreeing). Hence two systems in different clusters always differ
 * significantly (the heatmap stars them); systems in one cluster may still differ in some pairs,
 * which are marked as within-cluster significant.
 */
export const CLUSTER_DEFINITION =
  'Clusters (WMT style): systems are sorted by the aggregation, and a new cluster starts only where every system above is significantly better than every system below (corrected p < α by the named test). Systems in different clusters therefore always differ significantly; systems in the same cluster may still differ in a few pairs, marked "significant within cluster".';

/** Options for {@link analyseSystems}; every default is recorded in `Analysis.settings`. */
export interface AnalyseOptions {
  /** Seed for every stochastic step (bootstrap: seed; randomisation: seed + 1; Elo/TrueSkill orders: seed + 2). Default 12345. */
  seed?: number;
  /**
   * Bootstrap resamples (intervals, bootstrap tests) and randomisation trials. Default
   * {@link recommendedResamples} for the number of pairs, α and correction (at least 1,000).
   */
  resamples?: number;
  /** Multiple-comparison correction over all pairs, per test. Default 'holm'. */
  correction?: Correction;
  /** Significance level for clusters. Default 0.05. */
  alpha?: number;
  /** One test to drive all clusters; default {@link DEFAULT_CLUSTER_TESTS}. */
  test?: TestName;
  /** Random game orders averaged for Elo and TrueSkill. Default {@link defaultGameOrders} (10; fewer for huge inputs). */
  eloOrders?: number;
  /**
   * Sentence-level tests to compute for every pair (default: all six, except Wilcoxon when
   * pairs × instances > {@link WILCOXON_ALL_PAIRS_CELLS}). The tests behind the clusters are
   * always computed; the others get NaN (JSON null) and no corrected p, and are listed in
   * `settings.skipped_tests`.
   */
  pairTests?: readonly TestName[];
  /**
   * Work budget of the automatic resample count (resamples × systems × instances); default
   * {@link RESAMPLE_WORK_BUDGET}. Ignored when `resamples` is given.
   */
  resampleBudget?: number;
  /**
   * Systems the automatic resample count is priced for (its recommended count and work budget),
   * when more than the table's: a board computed while further systems are still being scored
   * gives the number it will have, so that its resamples (and the memo columns it keeps, ADR
   * 0027) are those of the board after the last score, not the many more that its fewer systems
   * would get; and whether a test with a cell limit (Wilcoxon) runs for every pair is decided for
   * that board's pairs. The resample count ignores it when `resamples` is given; at most the
   * table's systems has no effect.
   */
  budgetSystems?: number;
  /** Options for every Bradley–Terry fit. */
  bradleyTerry?: Pick<BradleyTerryOptions, 'tolerance' | 'maxIterations'>;
  /**
   * Optional per-instance sufficient statistics (stats[system][instance] = number[], or the flat
   * typed-array form {@link FlatCorpusStats}; systems in table order) and their corpus scorer
   * (e.g. corpus BLEU): adds `bootstrap_corpus` and `ar_corpus` tests as sacreBLEU's paired-bs /
   * paired-ar, and `corpus` per system. The flat form is read in place (never copied).
   */
  corpus?: {
    stats: CorpusStatsInput;
    corpusFromStats: CorpusFromStats;
    /** Run the corpus-level AR (paired-ar) too; default true. Its p-values are NaN when false. */
    ar?: boolean;
  };
  /**
   * Called after each stage with its name and wall-clock milliseconds (benchmarks and logs).
   * Not part of the result; leave out in production.
   */
  onStage?: (stage: string, ms: number) => void;
  /**
   * A memo carried between analyses of a growing set of systems (analysis-memo.ts): read where
   * it matches, then replaced by this analysis' systems and pairs. Needs `fingerprints`. The
   * result is the same with or without it.
   */
  memo?: AnalysisMemo;
  /**
   * One key per system (input order) that changes whenever its row, its corpus statistics or
   * the instances (ids and order) change, e.g. a hash of all three: the memo's keys.
   */
  fingerprints?: readonly string[];
  /** Told what the memo saved (benchmarks and logs). */
  onMemoUse?: (use: MemoUse) => void;
}

/** Per-system results. Non-finite numbers (an unbounded BT strength) serialise to JSON null. */
export interface SystemSummary {
  system: string;
  n: number;
  mean: number;
  median: number;
  /** Bradley–Terry strength within the system's component of the win graph (see `bt_structure`). */
  bt: number;
  bt_ci: [number, number];
  /** Dominance tier of the system's win-graph component (0 = top); all 0 when the MLE is finite. */
  bt_tier: number;
  /** Win-graph component id (strongly connected component). */
  bt_component: number;
  elo: number;
  trueskill: { mu: number; sigma: number };
  rank: { mean: number; median: number; bt: number; elo: number; trueskill: number; corpus?: number };
  /**
   * 95% rank intervals: bootstrap over instances for mean/median/BT; for Elo and TrueSkill the
   * 2.5–97.5 percentiles of ranks over the random game orders (order sensitivity only; always set
   * by analyseSystems, optional in the type so hand-built summaries stay valid).
   */
  rank_ci: {
    mean: [number, number];
    median: [number, number];
    bt: [number, number];
    elo?: [number, number];
    trueskill?: [number, number];
    corpus?: [number, number];
  };
  mean_ci: [number, number];
  median_ci: [number, number];
  cluster: { mean: number; median: number; bt: number; corpus?: number };
  /** True when this system is in a pair whose cluster relation differs between mean, median and BT. */
  cluster_disagreement: boolean;
  /** Corpus score from summed sufficient statistics (only with `corpus` input; input orientation). */
  corpus?: number;
  /** sacreBLEU's bootstrap "mean ± CI" of the corpus score, with the 2.5/97.5 order statistics. */
  corpus_ci?: { mean: number; ci: number; lower: number; upper: number };
  /**
   * Every ranking method that applies (see `Analysis.methods`), keyed by method: value (input
   * orientation for methods in the metric's direction), 95% interval (null: none), rank, 95% rank
   * interval and cluster (null: the method has no clusters).
   */
  methods: Record<string, MethodValue>;
}

/** One system's results under one ranking method. */
export interface MethodValue {
  value: number;
  interval: [number, number] | null;
  rank: number;
  rank_ci: [number, number];
  cluster: number | null;
}

/** A statistic (maybe ±Infinity → JSON null) and p-value. */
export interface StatP {
  statistic: number;
  p: number;
}

/** One test's result on a pair: p, and the statistic for tests that have one. */
export type TestResultOfPair = { statistic: number; p: number } | { p: number };

/** Per-pair results of every test, keyed by test (corpus tests only with sufficient statistics). */
export type PairTestResults = Record<SentenceTestName, TestResultOfPair> & Partial<Record<CorpusTestName, TestResultOfPair>>;

/** Per-pair results; "a" is the first system in table order, differences are a − b. */
export interface PairSummary {
  a: string;
  b: string;
  wins: number;
  losses: number;
  ties: number;
  p_bt: number;
  median_diff: number;
  mean_diff: number;
  /**
   * Every test of the registry (tests/registry.ts) by key: p and, for tests with a statistic, the
   * statistic (NaN both when the test was not computed, see `settings.skipped_tests`); the corpus
   * tests only with per-instance sufficient statistics.
   */
  tests: PairTestResults;
  p_adjusted: Record<string, number>;
  /**
   * Per clustered aggregation: the pair differs significantly by that aggregation's cluster test
   * (corrected p < α, direction agreeing with the order). With `cluster`, a significant pair in
   * the same cluster is "significant within cluster".
   */
  significant: Partial<Record<ClusteredAggregation, boolean>>;
}

/** Cluster relation of a pair under each aggregation: '>' a's cluster is better, '<' worse, '=' same. */
export interface ClusterDisagreement {
  a: string;
  b: string;
  mean: '>' | '<' | '=';
  median: '>' | '<' | '=';
  bt: '>' | '<' | '=';
}

/** The whole leaderboard: what `podium rank` prints and the API serves. */
export interface Analysis {
  /** The ranking methods of `systems[].methods`, in table order (methods/registry.ts). */
  methods: MethodDescriptor[];
  systems: SystemSummary[];
  /**
   * The win graph behind Bradley–Terry: `finite_mle` true when it is strongly connected (the MLE
   * exists and is unique). Otherwise the strongly connected components, in dominance order, each
   * fitted alone; `note` says so in words. `no_finite_mle_resamples`: bootstrap resamples without one.
   */
  bt_structure: { finite_mle: boolean; components: { tier: number; systems: string[] }[]; note: string | null; no_finite_mle_resamples: number };
  pairs: PairSummary[];
  disagreements: ClusterDisagreement[];
  settings: {
    seed: number;
    resamples: number;
    correction: Correction;
    alpha: number;
    elo_orders: number;
    cluster_tests: Partial<Record<ClusteredAggregation, TestName>> & Record<'mean' | 'median' | 'bt', TestName>;
    /** Whether `resamples` was chosen by {@link recommendedResamples} (true) or given. */
    resamples_chosen: boolean;
    /** Smallest corrected p a resampling test can reach with these resamples and pairs. */
    smallest_reachable_p: number;
    /** Plain-language warnings (e.g. resampling tests that cannot reach significance). */
    warnings: string[];
    higher_is_better: boolean;
    n_systems: number;
    n_instances: number;
    bt_nonconverged_resamples: number;
    /** Tests not computed for the pairs (see {@link AnalyseOptions.pairTests}); absent when all were. */
    skipped_tests?: TestName[];
    /** Instances each Elo/TrueSkill order played, when fewer than all (see {@link MAX_GAMES_PER_ORDER}). */
    elo_instances_per_order?: number;
    /** {@link recommendedResamples}, when the work budget chose fewer resamples. */
    resamples_recommended?: number;
  };
}

const TESTS: readonly TestName[] = SENTENCE_TESTS;

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Indices 0…m−1 sorted by their names (code units). */
function orderByName(names: readonly string[]): Int32Array {
  return Int32Array.from(names.map((_, i) => i).sort((a, b) => byCodeUnit(names[a] ?? '', names[b] ?? '')));
}

function isIdentity(order: Int32Array): boolean {
  for (let l = 0; l < order.length; l++) if (order[l] !== l) return false;
  return true;
}

/**
 * Canonical order (systems and instances sorted) so results do not depend on input order.
 * `instOrder` is null when the instances already are in canonical order (rows are then used as is).
 */
export function canonicalise(table: ScoreTable<ArrayLike<number>>): { x: Float64Array[]; sysOrder: Int32Array; instOrder: Int32Array | null } {
  const oriented = orientedScores(table);
  const sysOrder = orderByName(table.systems);
  if (new Set(table.instances).size !== table.instances.length) throw new RankingInputError('instance ids must be unique');
  const order = orderByName(table.instances);
  const instOrder = isIdentity(order) ? null : order;
  const x = Array.from(sysOrder, (s) => {
    const row = oriented[s];
    if (!row) throw new RankingInputError(`no scores for system ${s}`);
    return instOrder ? gather(row, instOrder) : row;
  });
  return { x, sysOrder, instOrder };
}


/**
 * Work budget of the automatic resample count: resamples × (systems × instances + {@link
 * PER_PAIR_RESAMPLE_COST} × systems²) ≤ this (2·10⁹; about 20 s of resampling on one core of
 * the 2-core reference machine). A resample costs a pass over every system's instances and, per
 * pair of systems, the Bradley–Terry refit, rank columns and pair counts — the second term,
 * which dominates many systems on few instances (100 × 200 took 85 s at 100,000 resamples).
 * The demo (13 × 506: 16,000) and 11 × 3,004 (11,000) keep {@link recommendedResamples};
 * 100 × 100,000 gets {@link MIN_BUDGETED_RESAMPLES}. See docs/adr/0009-leaderboard-analysis-at-scale.md.
 */
export const RESAMPLE_WORK_BUDGET = 2_000_000_000;

/**
 * Cost of one resample per ordered pair of systems, in resampled cells: measured at 100 × 200
 * (bootstrap 670 µs per resample, of which ~134 µs for the 20,000 cells), rounded up.
 */
export const PER_PAIR_RESAMPLE_COST = 16;

/** Fewest resamples the budget may leave (so intervals and rank intervals stay usable). */
export const MIN_BUDGETED_RESAMPLES = 200;

/**
 * The automatic resample count: {@link recommendedResamples}, unless that exceeds the work budget
 * resamples·(systems·instances + {@link PER_PAIR_RESAMPLE_COST}·systems²) ≤ `budget`
 * ({@link RESAMPLE_WORK_BUDGET}); then the largest
 * multiple of 100 within it, at least {@link MIN_BUDGETED_RESAMPLES}. The smaller count raises
 * the smallest reachable p ({@link smallestReachableP}); {@link significanceWarnings} says so.
 * @example budgetedResamples(4950, 0.05, 'holm', 100, 100000); // 200 (recommended: 100,000)
 */
export function budgetedResamples(pairs: number, alpha: number, correction: Correction, systems: number, instances: number, budget = RESAMPLE_WORK_BUDGET): number {
  const recommended = recommendedResamples(pairs, alpha, correction);
  const cells = Math.max(1, systems * instances + PER_PAIR_RESAMPLE_COST * systems * systems);
  if (recommended * cells <= budget) return recommended;
  return Math.min(recommended, Math.max(MIN_BUDGETED_RESAMPLES, Math.floor(budget / cells / 100) * 100));
}

export { WILCOXON_ALL_PAIRS_CELLS };

/** Whether an analysis runs the corpus-level AR (paired-ar), which reads every system's statistics. */
function corpusArWanted(options: AnalyseOptions): boolean {
  return options.corpus !== undefined && (options.corpus.ar !== false || options.test === 'ar' || options.test === 'ar_corpus');
}

/** Whether a memo entry holds everything an analysis of R resamples reads of a system's corpus statistics of this width. */
function memoServesCorpus(m: SystemMemo | undefined, R: number, width: number, arCorpus: boolean): boolean {
  return !arCorpus && m !== undefined && m.corpus.length >= R && m.corpusTotals !== undefined && m.corpusTotals.length === width;
}

/**
 * Which systems' corpus statistics (input order) {@link analyseSystems} will read with these
 * options: with a memo and fingerprints, not those whose corpus columns the memo holds for every
 * resample along with their summed statistics — those may be given as empty arrays (issue #28:
 * the board after the last score reads one system's statistics, not a hundred). Without a memo,
 * fingerprints, or with the corpus AR: every system. Only `options.corpus.stats.width` is read
 * of the statistics (the flat form; the rows form: every system).
 * @example corpusStatsNeeded(table, { ...options, corpus: { stats: { width: 10, data: [] }, corpusFromStats } }); // [false, …, true]
 */
export function corpusStatsNeeded(table: Pick<ScoreTable, 'systems' | 'instances' | 'higherIsBetter'>, options: AnalyseOptions): boolean[] {
  const k = table.systems.length;
  const all = Array.from({ length: k }, () => true);
  const memo = options.memo;
  const fp = options.fingerprints;
  const stats = options.corpus?.stats;
  if (!memo || !fp || !stats || !isFlatCorpusStats(stats) || fp.length !== k || corpusArWanted(options)) return all;
  const n = table.instances.length;
  const { computed } = testPlan(k, n, options);
  if (memo.context !== memoContextOf(n, options.seed ?? 12345, table.higherIsBetter === false ? -1 : 1, stats.width, computed)) return all;
  const R = resamplesOf(k, n, options);
  return fp.map((f) => !memoServesCorpus(memo.systems.get(f), R, stats.width, false));
}

/** The context a memo's entries were computed in: another one empties it. Not R: resample r's draws do not depend on R, so kept columns serve as far as they reach. */
export function memoContextOf(n: number, seed: number, sign: number, width: number, computed: readonly TestName[]): string {
  return JSON.stringify([n, seed, sign, width, computed]);
}

/** The systems an analysis of k is priced for: the board to come ({@link AnalyseOptions.budgetSystems}) when more. */
function pricedSystemsOf(k: number, options: AnalyseOptions): number {
  return Math.max(k, options.budgetSystems ?? 0);
}

/** The resamples an analysis of k systems × n instances draws: `options.resamples`, else {@link budgetedResamples} priced for `budgetSystems` when more. */
export function resamplesOf(k: number, n: number, options: AnalyseOptions): number {
  // The systems (and pairs) the automatic count is priced for.
  const pricedSystems = pricedSystemsOf(k, options);
  const pricedPairs = (pricedSystems * (pricedSystems - 1)) / 2;
  return options.resamples ?? budgetedResamples(pricedPairs, options.alpha ?? 0.05, options.correction ?? 'holm', pricedSystems, n, options.resampleBudget);
}

/**
 * Which tests an analysis of k systems × n instances computes (every pair) and which drive its
 * clusters, from its options: shared by {@link analyseSystems} and {@link corpusStatsNeeded}.
 */
export function testPlan(k: number, n: number, options: AnalyseOptions): { clusterTests: AnalyseResultClusterTests; wanted: Set<TestName>; computed: TestName[]; skipped: TestName[] } {
  // The pairs of the board to come (budgetSystems), as for the resamples: a test's cell limit
  // then decides alike before and after the last score, and so does the memo's context (at
  // 100,000 instances Wilcoxon left every pair at 33 systems, and the memos kept before were lost).
  const priced = pricedSystemsOf(k, options);
  const nPairs = (priced * (priced - 1)) / 2;
  // Which tests to compute for every pair: all by default; Wilcoxon on large boards only on request.
  if (options.test && (options.test === 'bootstrap_corpus' || options.test === 'ar_corpus') && !options.corpus) {
    throw new RankingInputError(`test '${options.test}' needs per-instance sufficient statistics (a corpus-level metric)`);
  }
  const clusterTests: AnalyseResultClusterTests = options.test
    ? { mean: options.test, median: options.test, bt: options.test }
    : { mean: DEFAULT_CLUSTER_TESTS.mean, median: DEFAULT_CLUSTER_TESTS.median, bt: DEFAULT_CLUSTER_TESTS.bt };
  if (options.test === 'bootstrap_corpus' || options.test === 'ar_corpus') {
    // a corpus test drives the sentence-level aggregations through its mean-score analogue
    const analogue: TestName = options.test === 'ar_corpus' ? 'ar' : 'bootstrap';
    clusterTests.mean = clusterTests.median = clusterTests.bt = analogue;
  }
  const corpusTestFor = (t: TestName): TestName => (t === 'ar' || t === 'ar_corpus' ? 'ar_corpus' : 'bootstrap_corpus');
  if (options.corpus) clusterTests.corpus = options.test ? corpusTestFor(options.test) : DEFAULT_CLUSTER_TESTS.corpus;
  const allPairs = (t: (typeof SIGNIFICANCE_TESTS)[number]): boolean => !('allPairsCellLimit' in t) || nPairs * n <= t.allPairsCellLimit;
  const wanted = new Set<TestName>(options.pairTests ?? SIGNIFICANCE_TESTS.filter((t) => !t.corpus && allPairs(t)).map((t) => t.key));
  for (const t of [clusterTests.mean, clusterTests.median, clusterTests.bt]) wanted.add(t);
  // a clustered method beyond the built-in ones brings its own test (or the chosen one)
  for (const m of RANKING_METHODS) if (m.clusterTest && !(m.key in clusterTests)) wanted.add(options.test ?? m.clusterTest);
  const computed = TESTS.filter((t) => wanted.has(t));
  const skipped = TESTS.filter((t) => !wanted.has(t));
  return { clusterTests, wanted, computed, skipped };
}

/**
 * Win points of every system (wins + ½·ties against every other system over all instances) from
 * the pairwise wins matrix, and per resample from the bootstrap's resampled wins W and ties T.
 */
function winPoints(wins: Float64Array, bWins: Float64Array, bTies: Float64Array, k: number, n: number, R: number): SharedEstimates['winPoints'] {
  const points = Array.from({ length: k }, (_, i) => {
    let p = 0;
    for (let j = 0; j < k; j++) {
      if (j === i) continue;
      const w = at(wins, i * k + j);
      p += w + (n - w - at(wins, j * k + i)) / 2;
    }
    return p;
  });
  const boot = new Float64Array(R * k);
  for (let c = 0; c < R * k; c++) boot[c] = at(bWins, c) + at(bTies, c) / 2;
  return { points, boot };
}

/**
 * The full leaderboard for systems scored on the same instances: MEAN, MEDIAN, Bradley–Terry
 * (bootstrap 95% intervals of strengths and ranks), Elo, TrueSkill; for every pair, wins/losses/
 * ties, p_bt, the median of paired differences and six paired tests with corrected p-values; and
 * significance clusters for mean, median and BT side by side with disagreements flagged.
 *
 * Reproducible: systems and instances are put in a canonical (sorted) order first and every
 * random step is seeded, so permuting rows or columns of the input changes nothing.
 * Resampling: one multinomial count vector per resample is shared by all systems and pairs, and
 * by the sentence and corpus statistics (docs/adr/0003-shared-resample-weights.md); O(k·n) per
 * resample plus the k×k BT refit; pairs are then read off the per-system resampled statistics.
 * Memory O(k·n): no per-pair copies of the instances.
 * Scale (docs/adr/0009-leaderboard-analysis-at-scale.md): automatic resamples follow a work
 * budget ({@link budgetedResamples}); Wilcoxon for every pair only up to
 * {@link WILCOXON_ALL_PAIRS_CELLS} unless asked for; Elo/TrueSkill orders play at most
 * {@link MAX_GAMES_PER_ORDER} games each.
 * Inputs and outputs are plain data (typed arrays allowed for corpus statistics), so the call can
 * run in a worker thread; `corpusFromStats` and `onStage` are functions and must be created there.
 * Reference: Peyrard et al. (2021), "Better than average: paired evaluation of NLP systems"
 * (Zhao thesis ch. 11); Koehn (2004) bootstrap; Holm (1979).
 * @example analyseSystems({ systems: ['A', 'B', 'C'], instances: ['1', '2', '3', '4', '5'],
 *   scores: [[1, 5, 11, 12, 17], [5, 11, 12, 17, 1], [2, 6, 7, 13, 18]] }).systems[1].bt; // ≈ 0.657
 */
export function analyseSystems(table: ScoreTable<ArrayLike<number>>, options: AnalyseOptions = {}): Analysis {
  const seed = options.seed ?? 12345;
  const correction = options.correction ?? 'holm';
  const alpha = options.alpha ?? 0.05;
  const nPairs = (table.systems.length * (table.systems.length - 1)) / 2;
  if (options.budgetSystems !== undefined && !(Number.isInteger(options.budgetSystems) && options.budgetSystems >= 0)) {
    throw new RankingInputError(`budgetSystems must be a non-negative integer, got ${options.budgetSystems}`);
  }
  const R = resamplesOf(table.systems.length, table.instances.length, options);
  const eloOrders = options.eloOrders ?? defaultGameOrders(table.systems.length, table.instances.length);
  if (!Number.isInteger(R) || R < 1) throw new RankingInputError('resamples must be a positive integer');
  if (!(alpha > 0 && alpha < 1)) throw new RankingInputError('alpha must be in (0, 1)');
  if (!Number.isInteger(seed)) throw new RankingInputError('seed must be an integer');
  if (table.systems.length < 2) throw new RankingInputError('need at least two systems to rank');
  if (table.instances.length < 1) throw new RankingInputError('need at least one instance');
  const sign = table.higherIsBetter === false ? -1 : 1;
  const onStage = options.onStage;
  const clock = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());
  let stageStart = clock();
  const stage = (name: string): void => {
    if (!onStage) return;
    const now = clock();
    onStage(name, now - stageStart);
    stageStart = now;
  };
  const { x, sysOrder, instOrder } = canonicalise(table);
  stage('canonicalise');
  const k = x.length;
  const n = table.instances.length;
  // sysOrder[c] = input index of canonical system c; pos[input] = canonical index
  const pos = new Int32Array(k);
  sysOrder.forEach((inputIdx, c) => (pos[inputIdx] = c));
  const btOpts: BradleyTerryOptions = { tolerance: options.bradleyTerry?.tolerance ?? 1e-9, maxIterations: options.bradleyTerry?.maxIterations ?? 10000 };

  const { clusterTests, wanted, computed, skipped } = testPlan(k, n, options);
  const want = (t: TestName): boolean => wanted.has(t);

  // Corpus statistics, read in place: systems reordered by reference, instances through instOrder.
  let corpusFlat: FlatCorpusStats | null = null;
  let scoreOf: ((sum: ArrayLike<number>) => number) | null = null;
  if (options.corpus) {
    const given = options.corpus.stats;
    const count = isFlatCorpusStats(given) ? given.data.length : given.length;
    if (count !== k) throw new RankingInputError(`corpus statistics given for ${count} systems, expected ${k}`);
    // with a memo, systems whose corpus columns it holds may come without statistics (corpusStatsNeeded)
    const flat = flatCorpusStats(given, n, (s) => table.systems[s] ?? String(s), options.memo !== undefined && options.fingerprints !== undefined);
    corpusFlat = { width: flat.width, data: Array.from(sysOrder, (s) => at(flat.data, s, 'corpus statistics')) };
    scoreOf = corpusScorer(options.corpus.corpusFromStats, flat.width);
  }

  // The memo (analysis-memo.ts): what earlier analyses in the same context computed per system.
  if (options.fingerprints && options.fingerprints.length !== k) throw new RankingInputError(`fingerprints given for ${options.fingerprints.length} systems, expected ${k}`);
  const memo = options.memo && options.fingerprints ? options.memo : null;
  const fp = options.fingerprints ? Array.from(sysOrder, (s) => at(options.fingerprints ?? [], s, 'fingerprints')) : [];
  const memoContext = memoContextOf(n, seed, sign, corpusFlat?.width ?? 0, computed);
  if (memo) adoptMemoContext(memo, memoContext);
  const kept: (SystemMemo | undefined)[] = memo ? fp.map((f) => memo.systems.get(f)) : [];
  const arCorpus = corpusArWanted(options);
  corpusFlat?.data.forEach((f, c) => {
    if (f.length === 0 && n * corpusFlat.width > 0 && !memoServesCorpus(kept[c], R, corpusFlat.width, arCorpus)) {
      throw new RankingInputError(`corpus statistics for system ${table.systems[at(sysOrder, c)] ?? c} are missing, and the memo does not hold its corpus columns`);
    }
  });

  // Point estimates. sorted[i] = x[i] ascending, read off the argsort, for the systems whose
  // resampled medians are computed here (the bootstrap walks the sorted order); a system whose
  // every median column the memo holds is not sorted (issue #28: at 100 × 100,000 the argsort of
  // every row was seconds of the board after the last score): its median by selection, its Mood
  // tests read from the memo or run on the unsorted rows. Same values either way.
  const sortedNeeded = x.map((_, c) => (kept[c]?.mean.length ?? 0) < R);
  const unsorted = new Int32Array(0);
  const sortIdx = x.map((row, c) => (sortedNeeded[c] ? argsortAscending(row) : unsorted));
  const sorted = x.map((row, c) => (sortedNeeded[c] ? gather(row, at(sortIdx, c, 'sortIdx')) : new Float64Array(0)));
  const means = x.map((row) => mean(row));
  const medians = x.map((row, c) => (sortedNeeded[c] ? exactMedianSorted(at(sorted, c)) : (kept[c]?.pointMedian ?? medianBySelection(Float64Array.from(row)))));
  // The pairs' wins: counted in one sweep, or with a memo that holds most of them, read from it
  // with the beats and ties from each instance's sorted scores (issue #28: the sweep is O(k²n)).
  // (the memo's wins looked up once per pair, canonical i < j at i·k + j)
  const keptWins: (readonly [number, number] | undefined)[] = [];
  let winsKept = 0;
  if (memo) {
    for (let ci = 0; ci < k; ci++) {
      for (let cj = ci + 1; cj < k; cj++) {
        const ahead = memo.pairs.get(pairMemoKey(at(fp, ci), at(fp, cj)))?.wins;
        const behind = ahead ? undefined : memo.pairs.get(pairMemoKey(at(fp, cj), at(fp, ci)))?.wins;
        const wins = ahead ?? (behind ? ([behind[1], behind[0]] as const) : undefined);
        keptWins[ci * k + cj] = wins;
        if (wins) winsKept++;
      }
    }
  }
  const pc = memo && 2 * winsKept >= nPairs ? pairwiseCountsKept(x, (ci, cj) => keptWins[ci * k + cj]) : pairwiseCounts(x);
  const suff = sufficientFromWins(pc.wins, k);
  const btFit = fitBradleyTerrySufficient(suff.W, suff.N, k, btOpts, (i, j) => (pc.wins[i * k + j] ?? 0) > 0);
  const btKey = Array.from(btFit.strengths, (s, i) => bradleyTerryOrderKey(s, btFit.tier[i] ?? 0, btFit.tiers));
  stage('point estimates');

  // Bootstrap: shared multinomial counts for all systems (means, medians, BT, mean-difference
  // test, and the corpus score when statistics are given).
  const boot = bootstrapAggregates(
    x,
    pc,
    sortIdx,
    btFit.strengths,
    R,
    seed,
    btOpts,
    corpusFlat && scoreOf ? { ...corpusFlat, order: instOrder, score: scoreOf } : undefined,
    memo
      ? {
          kept,
          // a kept pair's tied counts, whichever order it was stored in
          keptTies: (i, j) => (memo.pairs.get(pairMemoKey(at(fp, i), at(fp, j))) ?? memo.pairs.get(pairMemoKey(at(fp, j), at(fp, i))))?.tied,
          recordTies: true,
        }
      : undefined,
  );
  const { bMean, bMedian, bBt, bBtKey } = boot;
  const nonConverged = boot.nonConverged;
  stage('bootstrap');

  // Corpus-level tests (sacreBLEU paired-bs from the shared draws above, paired-ar), canonical order.
  let corpusRes: CorpusResampling | null = null;
  if (options.corpus && corpusFlat && scoreOf) {
    // the totals a memo kept for systems given without statistics (with corpus AR every system has them)
    const knownTotals = arCorpus ? [] : corpusFlat.data.map((f, c) => (f.length === 0 ? kept[c]?.corpusTotals : undefined));
    corpusRes = corpusTestsFromBootstrap(corpusFlat, instOrder, scoreOf, boot.bCorpus, R, arCorpus ? R : 0, seed, knownTotals);
  }
  const corpusScores = corpusRes ? corpusRes.scores : null;
  // Oriented corpus scores and bootstrap samples (larger is better) for ranks and clusters.
  const corpusKey = corpusScores ? corpusScores.map((v) => sign * v) : null;
  stage('corpus resampling');

  // Elo and TrueSkill play the same schedule (seed + 2) on the canonical rows.
  const games = gameSchedule(x, null, null, { orders: eloOrders, seed: (seed + 2) >>> 0 });
  const eloResult = eloFromSchedule(games);
  stage('elo');
  const tsResult = trueSkillFromSchedule(games);
  stage('trueskill');

  // Every ranking method (methods/registry.ts) from the shared estimates, canonical order.
  const ctx: MethodContext = {
    x,
    k,
    n,
    R,
    seed,
    sign,
    shared: {
      means,
      bMean,
      medians,
      bMedian,
      bt: { strengths: btFit.strengths, key: btKey, boot: bBt, bootKey: bBtKey },
      elo: eloResult,
      trueskill: tsResult,
      corpus: corpusRes ? { scores: corpusRes.scores, intervals: corpusRes.intervals, boot: corpusRes.boot } : null,
      winPoints: winPoints(pc.wins, boot.bWins, boot.bTies, k, n, R),
    },
  };
  const estimates: { method: (typeof RANKING_METHODS)[number]; estimate: MethodEstimate; ranks: number[] }[] = [];
  for (const method of RANKING_METHODS) {
    const estimate = method.estimate(ctx);
    if (estimate) estimates.push({ method, estimate, ranks: rankDescending(estimate.order, estimate.tolerance) });
  }
  const estimateOf = (key: string) => estimates.find((e) => e.method.key === key);
  stage('methods');

  // Every computed test (tests/registry.ts), prepared once (e.g. randomisation trials), then run
  // on every pair (in input order a < b) on canonical arrays. With a memo, a test that declares
  // `memoisable` is not run on a kept pair (its outcome is read by the pair's memo key), and the
  // AR test's trials reuse the kept per-system sums.
  const arSums = memo && want('ar') ? new Float64Array(R * k) : undefined;
  const setup: TestSetup = {
    x,
    k,
    n,
    R,
    seed,
    sign,
    sorted,
    means,
    medians,
    bMean,
    wins: pc.wins,
    corpus: corpusRes && corpusKey ? { key: corpusKey, resampling: corpusRes } : null,
    // the randomisation sums kept per system, and where this analysis' are written for the memo
    memo: memo ? { arSums: kept.map((m) => m?.arSums), arSumsOut: arSums } : null,
  };
  const running = SIGNIFICANCE_TESTS.filter((t) => (t.corpus ? setup.corpus !== null : want(t.key))).map((t) => ({
    test: t,
    run: t.prepare(setup),
    memoisable: 'memoisable' in t && t.memoisable,
  }));
  stage('randomisation');
  const pairs: PairSummary[] = [];
  const pairIndex = new Int32Array(k * k).fill(-1);
  // the pair the tests look at (a kept pair whose tests are all read takes no differences)
  const { pair, select, medianDiff } = pairWorkspace(x, n);
  const raw: Partial<Record<TestName, number[]>> = {};
  // direction[test][pair] > 0 when a is better than b by that test's own statistic (oriented).
  const direction: Partial<Record<TestName, number[]>> = {};
  for (const { test } of running) {
    raw[test.key] = [];
    direction[test.key] = [];
  }
  const notComputed = (t: (typeof SIGNIFICANCE_TESTS)[number]): TestResultOfPair => (t.statistic ? { statistic: NaN, p: NaN } : { p: NaN });
  const nextPairs: Map<string, PairMemo> | null = memo ? new Map() : null;
  let pairsReused = 0;
  for (let ia = 0; ia < k; ia++) {
    for (let ib = ia + 1; ib < k; ib++) {
      const i = at(pos, ia);
      const j = at(pos, ib);
      const pairKey = memo ? pairMemoKey(at(fp, i), at(fp, j)) : '';
      // a kept pair: its memoisable tests' outcomes and median difference are read, not recomputed
      const pm = memo?.pairs.get(pairKey);
      if (pm) pairsReused++;
      select(i, j);
      const outcomes = new Map<TestName, PairOutcome>();
      for (const { test, run, memoisable } of running) outcomes.set(test.key, (memoisable ? pm?.outcomes[test.key] : undefined) ?? run(pair));
      // The median of differences: off the sorted differences when a test sorted them, else by selection.
      const medDiff = pm ? pm.medianDiff : medianDiff();
      if (nextPairs) {
        const memoised: Record<string, PairOutcome> = {};
        for (const { test, memoisable } of running) {
          const o = outcomes.get(test.key);
          if (memoisable && o) memoised[test.key] = o;
        }
        const tiedColumn = boot.tiedColumns?.get(Math.min(i, j) * k + Math.max(i, j));
        nextPairs.set(pairKey, { medianDiff: medDiff, outcomes: memoised, ...(tiedColumn ? { tied: tiedColumn } : {}), wins: [at(pc.wins, i * k + j), at(pc.wins, j * k + i)] });
      }
      const tests = {} as PairTestResults;
      for (const t of SIGNIFICANCE_TESTS) {
        const o = outcomes.get(t.key);
        if (t.corpus && !o) continue;
        (tests as Record<string, TestResultOfPair>)[t.key] = !o ? notComputed(t) : t.statistic ? { statistic: o.statistic ?? NaN, p: o.p } : { p: o.p };
      }
      for (const [key, o] of outcomes) {
        raw[key]?.push(o.p);
        direction[key]?.push(o.direction);
      }
      const wins = at(pc.wins, i * k + j);
      const losses = at(pc.wins, j * k + i);
      pairIndex[ia * k + ib] = pairs.length;
      pairs.push({
        a: table.systems[ia] ?? '',
        b: table.systems[ib] ?? '',
        wins,
        losses,
        ties: n - wins - losses,
        p_bt: bradleyTerryProbability(btFit.strengths, i, j, btFit),
        median_diff: sign * medDiff + 0,
        mean_diff: sign * (at(means, i) - at(means, j)) + 0,
        tests,
        p_adjusted: {},
        significant: {},
      });
    }
  }
  stage('pairs');
  if (memo && nextPairs) {
    const systemsReused = kept.filter((m) => m !== undefined).length;
    memo.systems = new Map(
      fp.map((f, i) => [
        f,
        {
          mean: column(boot.bMean, k, i, R),
          median: column(boot.bMedian, k, i, R),
          corpus: boot.bCorpus.length > 0 ? column(boot.bCorpus, k, i, R) : new Float64Array(0),
          arSums: arSums ? column(arSums, k, i, R) : new Float64Array(0),
          corpusTotals: corpusRes ? at(corpusRes.totals, i) : new Float64Array(0),
          pointMedian: at(medians, i),
        },
      ]),
    );
    memo.pairs = nextPairs;
    options.onMemoUse?.({ systemsReused, systemsComputed: k - systemsReused, pairsReused, pairsComputed: nPairs - pairsReused });
  }
  const adjusted: Partial<Record<TestName, number[]>> = {};
  for (const [name, ps] of Object.entries(raw) as [TestName, number[]][]) adjusted[name] = adjustPValues(ps, correction);
  pairs.forEach((p, q) => {
    for (const [name, ps] of Object.entries(adjusted)) p.p_adjusted[name] = ps[q] ?? NaN;
  });

  // Clusters per aggregation (canonical indices → input pair lookup).
  const significantPair = (test: TestName, q: number, aFirst: boolean): boolean => {
    const dir = direction[test]?.[q] ?? NaN;
    const p = adjusted[test]?.[q] ?? NaN;
    return p < alpha && (aFirst ? dir : -dir) > 0;
  };
  const better = (test: TestName) => (ci: number, cj: number): boolean => {
    const ia = at(sysOrder, ci);
    const ib = at(sysOrder, cj);
    const q = at(pairIndex, Math.min(ia, ib) * k + Math.max(ia, ib));
    return significantPair(test, q, ia < ib);
  };
  // Clusters of every method with a cluster test (its default, or the chosen one; see clusterTests).
  const clusterOf = new Map<string, number[]>();
  for (const { method, estimate } of estimates) {
    if (!method.clusterTest) continue;
    const test = (clusterTests as Partial<Record<string, TestName>>)[method.key] ?? (options.test && !method.clusterTest.endsWith('_corpus') ? options.test : method.clusterTest);
    (clusterTests as Partial<Record<string, TestName>>)[method.key] = test;
    if (!adjusted[test]) continue;
    clusterOf.set(method.key, clusters(estimate.order, better(test)));
  }
  const clusterTestOf = clusterTests as Partial<Record<string, TestName>>;
  pairs.forEach((p, q) => {
    for (const key of clusterOf.keys()) {
      const test = clusterTestOf[key];
      if (test) (p.significant as Record<string, boolean>)[key] = significantPair(test, q, true) || significantPair(test, q, false);
    }
  });
  const clusterMean = clusterOf.get('mean') ?? [];
  const clusterMedian = clusterOf.get('median') ?? [];
  const clusterBt = clusterOf.get('bt') ?? [];
  const clusterCorpus = clusterOf.get('corpus') ?? null;

  const rel = (ca: number, cb: number): '>' | '<' | '=' => (ca < cb ? '>' : ca > cb ? '<' : '=');
  const disagreements: ClusterDisagreement[] = [];
  const flagged = new Set<number>();
  for (let ia = 0; ia < k; ia++) {
    for (let ib = ia + 1; ib < k; ib++) {
      const i = at(pos, ia);
      const j = at(pos, ib);
      const m = rel(at(clusterMean, i), at(clusterMean, j));
      const md = rel(at(clusterMedian, i), at(clusterMedian, j));
      const b = rel(at(clusterBt, i), at(clusterBt, j));
      if (m !== md || m !== b) {
        disagreements.push({ a: table.systems[ia] ?? '', b: table.systems[ib] ?? '', mean: m, median: md, bt: b });
        flagged.add(ia);
        flagged.add(ib);
      }
    }
  }

  const est = (key: string) => {
    const e = estimateOf(key);
    if (!e) throw new Error(`ranking method '${key}' gave no estimate`);
    return e;
  };
  const [eMean, eMedian, eBt, eElo, eTs] = ['mean', 'median', 'bt', 'elo', 'trueskill'].map(est) as [ReturnType<typeof est>, ReturnType<typeof est>, ReturnType<typeof est>, ReturnType<typeof est>, ReturnType<typeof est>];
  const eCorpus = estimateOf('corpus');
  const bound = (iv: [number, number] | null | undefined): [number, number] => iv ?? [NaN, NaN];
  const systems: SystemSummary[] = table.systems.map((name, ia) => {
    const i = at(pos, ia);
    const tsi = at(tsResult.mean, i);
    const methods: Record<string, MethodValue> = {};
    for (const { method, estimate, ranks } of estimates) {
      methods[method.key] = {
        value: at(estimate.value, i),
        interval: estimate.interval[i] ?? null,
        rank: at(ranks, i),
        rank_ci: at(estimate.rankInterval, i),
        cluster: clusterOf.get(method.key)?.[i] ?? null,
      };
    }
    const summary: SystemSummary = {
      system: name,
      n,
      mean: at(eMean.estimate.value, i),
      median: at(eMedian.estimate.value, i),
      bt: btFit.strengths[i] ?? NaN,
      bt_tier: btFit.tier[i] ?? 0,
      bt_component: btFit.component[i] ?? 0,
      bt_ci: bound(eBt.estimate.interval[i]),
      elo: at(eElo.estimate.value, i),
      trueskill: { mu: tsi.mu, sigma: tsi.sigma },
      rank: { mean: at(eMean.ranks, i), median: at(eMedian.ranks, i), bt: at(eBt.ranks, i), elo: at(eElo.ranks, i), trueskill: at(eTs.ranks, i) },
      rank_ci: {
        mean: at(eMean.estimate.rankInterval, i),
        median: at(eMedian.estimate.rankInterval, i),
        bt: at(eBt.estimate.rankInterval, i),
        elo: at(eElo.estimate.rankInterval, i),
        trueskill: at(eTs.estimate.rankInterval, i),
      },
      mean_ci: bound(eMean.estimate.interval[i]),
      median_ci: bound(eMedian.estimate.interval[i]),
      cluster: { mean: at(clusterMean, i), median: at(clusterMedian, i), bt: at(clusterBt, i) },
      cluster_disagreement: flagged.has(ia),
      methods,
    };
    if (corpusRes && eCorpus && clusterCorpus) {
      summary.corpus = at(corpusRes.scores, i);
      summary.corpus_ci = at(corpusRes.intervals, i);
      summary.rank.corpus = at(eCorpus.ranks, i);
      summary.rank_ci.corpus = at(eCorpus.estimate.rankInterval, i);
      summary.cluster.corpus = at(clusterCorpus, i);
    }
    return summary;
  });

  stage('clusters and summaries');
  const components = btFit.dominates.map((_, c) => ({
    tier: btFit.tier[btFit.component.indexOf(c)] ?? 0,
    systems: table.systems.filter((_, ia) => btFit.component[at(pos, ia)] === c),
  }));
  const bt_structure = {
    finite_mle: btFit.finiteMle,
    components,
    note: btFit.finiteMle ? null : bradleyTerryNote(components),
    no_finite_mle_resamples: boot.noFiniteMle,
  };
  const warnings = significanceWarnings(R, nPairs, alpha, correction);
  const resamplesChosen = options.resamples === undefined;
  const recommended = recommendedResamples(nPairs, alpha, correction);
  const pricedSystems = pricedSystemsOf(table.systems.length, options);
  const priced = pricedSystems > table.systems.length ? ` for the ${pricedSystems} systems the board will have once the ones still being scored are in` : '';
  if (resamplesChosen && R < recommended) {
    warnings.push(
      `Resamples were limited to ${R} (instead of ${recommended}) so that resamples × (systems × instances + ${PER_PAIR_RESAMPLE_COST} × systems²)${priced} stays within the work budget of ${(options.resampleBudget ?? RESAMPLE_WORK_BUDGET).toExponential(0)}; give the phase a resample count to override.`,
    );
  } else if (resamplesChosen && priced) {
    warnings.push(`Resamples (${R}) were chosen${priced}.`);
  }
  if (skipped.length > 0) {
    warnings.push(
      `Not computed for the ${nPairs} pairs (${skipped.map((t) => TEST_LABELS[t]).join(', ')}): ${n} instances per pair; choose the test to get its p-values.`,
    );
  }
  if (games.played < n && !games.pairMajor) {
    warnings.push(`Elo and TrueSkill: each of the ${games.orders.length} random game orders plays all pairs on ${games.played} of the ${n} instances (a new random subset per order), at most ${MAX_GAMES_PER_ORDER} games per order.`);
  }
  const methods: MethodDescriptor[] = estimates.map(({ method }) => describeMethod(method, clusterOf.has(method.key) ? (clusterTestOf[method.key] ?? null) : null));
  return {
    methods,
    systems,
    bt_structure,
    pairs,
    disagreements,
    settings: {
      seed,
      resamples: R,
      correction,
      alpha,
      elo_orders: eloOrders,
      cluster_tests: clusterTests,
      resamples_chosen: resamplesChosen,
      smallest_reachable_p: smallestReachableP(R, nPairs, correction),
      warnings,
      higher_is_better: sign === 1,
      n_systems: k,
      n_instances: n,
      bt_nonconverged_resamples: nonConverged,
      ...(skipped.length > 0 ? { skipped_tests: skipped } : {}),
      ...(games.played < n && !games.pairMajor ? { elo_instances_per_order: games.played } : {}),
      ...(resamplesChosen && R < recommended ? { resamples_recommended: recommended } : {}),
    },
  };
}

/** Says in words why Bradley–Terry has no finite maximum-likelihood estimate. */
export function bradleyTerryNote(components: { tier: number; systems: string[] }[]): string {
  const list = components.map((c) => `tier ${c.tier + 1}: ${c.systems.join(', ')}`).join('; ');
  return (
    `Bradley–Terry has no finite maximum-likelihood estimate: the win graph splits into ${components.length} groups ` +
    `where no system of a lower group ever beats a system of a higher one, or groups never meet (${list}). ` +
    'Strengths are fitted within each group and compare only inside it; groups are ranked by dominance, and groups in the same tier that never met are not comparable.'
  );
}

type AnalyseResultClusterTests = Analysis['settings']['cluster_tests'];

/**
 * Smallest corrected p-value a resampling test with R resamples can give one of m pairs:
 * raw p ≥ 1/(R + 1); Holm and Benjamini–Hochberg multiply the smallest raw p by m (a single
 * significant pair), so the floor is min(1, m/(R + 1)); no correction leaves 1/(R + 1).
 * @example smallestReachableP(1000, 55, 'holm'); // 0.0549 — above α = 0.05: nothing can be significant
 */
export function smallestReachableP(resamples: number, pairs: number, correction: Correction): number {
  const factor = correction === 'none' ? 1 : Math.max(1, pairs);
  return Math.min(1, factor / (resamples + 1));
}

/**
 * Resamples so that the smallest reachable corrected p ({@link smallestReachableP}) is at most
 * α/10 — well below α, so a clear difference can be significant after correcting for all pairs:
 * R = ⌈10·m/α⌉ − 1 (m = pairs, 1 without correction), rounded up to a multiple of 1,000, at
 * least 1,000 (sacreBLEU's paired-bs default) and at most {@link MAX_RECOMMENDED_RESAMPLES}
 * (about 45 systems with Holm; beyond, {@link significanceWarnings} reports the floor).
 * @example recommendedResamples(55, 0.05, 'holm'); // 11000 (11 systems): smallest Holm p = 55/11001 ≈ 0.005
 */
export function recommendedResamples(pairs: number, alpha: number, correction: Correction): number {
  const factor = correction === 'none' ? 1 : Math.max(1, pairs);
  const needed = Math.ceil((10 * factor) / alpha) - 1;
  return Math.min(MAX_RECOMMENDED_RESAMPLES, Math.max(1000, Math.ceil(needed / 1000) * 1000));
}

/** Upper bound of the automatic resample count (cost grows linearly in it). */
export const MAX_RECOMMENDED_RESAMPLES = 100_000;

/** Warnings in words when resampling tests cannot reach (or barely reach) significance. */
export function significanceWarnings(resamples: number, pairs: number, alpha: number, correction: Correction): string[] {
  if (pairs < 1) return [];
  const floor = smallestReachableP(resamples, pairs, correction);
  const corr = correction === 'none' ? 'without correction' : `after ${correction === 'holm' ? 'Holm' : 'Benjamini–Hochberg'} correction over ${pairs} pairs`;
  if (floor >= alpha) {
    return [
      `With ${resamples} resamples the bootstrap and randomisation tests cannot reach significance ${corr}: the smallest possible p is ${floor.toPrecision(2)} ≥ α = ${alpha}. Their clusters are one group by construction; use at least ${recommendedResamples(pairs, alpha, correction)} resamples.`,
    ];
  }
  if (floor > alpha / 10) {
    const better = recommendedResamples(pairs, alpha, correction);
    return [
      `With ${resamples} resamples the smallest possible p of the bootstrap and randomisation tests is ${floor.toPrecision(2)} ${corr} (α = ${alpha})` +
        (better > resamples ? `; ${better} resamples would put it well below α.` : '; close pairs may not reach significance.'),
    ];
  }
  return [];
}
