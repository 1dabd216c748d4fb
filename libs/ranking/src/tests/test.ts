/**
 * What a paired significance test is: one plugin per file in this folder, found by the
 * registry through the generated `modules.generated.ts` (as the ranking methods are in ../methods). `analyseSystems` prepares every test
 * it computes once per analysis, then runs it on every pair; the leaderboard, GraphQL
 * (`significanceTests`, `SystemPair.testResults`), the web and the CLI read the descriptors, so a
 * new test needs no change there. See docs/architecture.md, "Add a ranking method or test".
 */
import type { CorpusResampling } from '../corpus-resampling';

/** What every test may read, computed once per analysis (canonical system order, larger is better). */
export interface TestSetup {
  /** Scores per system (systems and instances in canonical order), oriented so larger is better. */
  x: readonly Float64Array[];
  k: number;
  n: number;
  /** Bootstrap resamples and randomisation trials. */
  R: number;
  /** The analysis seed. */
  seed: number;
  /** 1 when larger input scores are better, −1 when smaller are (statistics are reported in the input orientation). */
  sign: 1 | -1;
  /** Each system's scores sorted ascending; empty for a system the analysis did not sort (its medians all from a memo): use `x`. */
  sorted: readonly Float64Array[];
  means: readonly number[];
  medians: readonly number[];
  /** Bootstrap means from the shared draws, R×k row-major (docs/adr/0003-shared-resample-weights.md). */
  bMean: Float64Array;
  /** Pairwise strict wins, k×k row-major: wins[i·k + j] = #{l : x_i[l] > x_j[l]}. */
  wins: Int32Array | Float64Array | readonly number[];
  /** With per-instance sufficient statistics only: oriented corpus scores and the corpus resampling (sacreBLEU paired-bs / paired-ar). */
  corpus: { key: readonly number[]; resampling: CorpusResampling } | null;
  /**
   * With an analysis memo (../analysis-memo.ts): per system, the randomisation trials' swapped
   * sums an earlier analysis kept (undefined where none), and where the AR test writes this
   * analysis' sums (R×k row-major, trial r at row r) for the memo to keep; absent or null without one.
   */
  memo?: { arSums: readonly (Float64Array | undefined)[]; arSumsOut: Float64Array | undefined } | null;
}

/** One pair (canonical indices i, j). */
export interface PairInput {
  i: number;
  j: number;
  /** d[l] = x_i[l] − x_j[l] in instance order; read only. */
  diffs: Float64Array;
  /** The same differences sorted ascending (sorted once per pair, on first use). */
  sortedDiffs(): Float64Array;
}

/** A test's verdict on a pair. */
export interface PairOutcome {
  /** The test statistic in the input orientation (tests with {@link SignificanceTest.statistic} only). */
  statistic?: number;
  /** Two-sided p-value (unadjusted). */
  p: number;
  /** > 0 when i is better than j by the test's own statistic (oriented), < 0 when worse. */
  direction: number;
}

/** A paired significance test. */
export interface SignificanceTest<K extends string = string> {
  /** Stable key (JSON `tests.<key>`, CSV, CLI `--test`, the GraphQL `PairedTest` value in upper case). */
  key: K;
  /** Human name for tables. */
  label: string;
  /**
   * Place in table order (smaller first: the tests on instance scores, then the corpus-score
   * ones); the registry finds tests by their files (ADR 0036), so the order is stated here.
   */
  order: number;
  /** Only with per-instance sufficient statistics of a corpus-level metric; never chosen alone (its sentence analogue is). */
  corpus: boolean;
  /** Whether its result carries a statistic besides p. */
  statistic: boolean;
  /**
   * When pairs × instances exceed this, the test runs for every pair only if asked for
   * (`pairTests` or the chosen test); absent: always.
   */
  allPairsCellLimit?: number;
  /**
   * Whether its outcome on a pair depends only on the pair's two rows and the analysis context
   * (instances, seed, orientation, the tests computed), never on the other systems: an analysis
   * memo then keeps the outcome per pair (`pairMemoKey`) and reads it instead of running the test
   * on a kept pair (../analysis-memo.ts). The outcome must be the same bits either way.
   */
  memoisable?: boolean;
  /** Work shared by all pairs (e.g. randomisation trials), then the per-pair test. */
  prepare(setup: TestSetup): (pair: PairInput) => PairOutcome;
}
