/**
 * What {@link analyseSystems} can carry from one analysis of a growing set of systems to the next
 * (issue #28: the board soon after the last score). Everything here depends on one system's row
 * (or one pair's two rows) and on the analysis context — instances and their order, seed,
 * orientation, corpus statistics' width, the tests computed — never on the other systems. (The
 * resampled Bradley–Terry wins W depend on every system; they are summed anew in each analysis,
 * O(k·n) per resample in one pass, which costs what updating kept sums by an added system did.)
 *
 * Values read from a memo are bit-identical to the ones an analysis from scratch computes: each
 * is the same sequence of floating-point operations on the same row (the bootstrap's count
 * vectors and the randomisation masks are redrawn from the seed every time; only the per-system
 * sums over them are reused). `analysis-memo.spec.ts` compares the two analyses in full.
 *
 * Cost model of one analysis of k systems × n instances with R resamples, when a memo holds all
 * but a of them (a = 1 after the last score), in operations (measured costs in
 * docs/adr/0027-incremental-boards.md):
 * - per system, new only: argsort O(n) radix, reading and decoding its corpus statistics (a kept
 *   system's are neither read nor sorted: its point median by selection, O(n), its summed
 *   statistics from the memo), resampled mean, median walk, corpus sums (width w) and
 *   randomisation sums: O(R·n·(3 + w)) — a·R·n·(3 + w);
 * - per system, kept: its R-long columns copied: O(R) — (k − a)·R;
 * - per pair, new only (pairs with a new system: a·(k − 1) − a(a−1)/2): differences, t-test, Mood
 *   (selection on unsorted rows) and the median of differences by selection, O(n) each, its tied
 *   instances listed once; kept pairs O(1), their tied counts per resample read: O(R);
 * - per pair, all: wins/ties O(n) (pairwiseCounts: the win graph and ties of the current set),
 *   bootstrap p O(R) — k²/2·(n + R); with most pairs' wins kept (PairMemo.wins) only the new
 *   pairs are counted, and the beats counts and ties come from each instance's sorted scores,
 *   O(n·k log k) (pairwiseCountsKept);
 * - per resample, all: the count vector O(n), every system's wins W O(k·n) (one pass over the
 *   drawn instances reading k consecutive beats counts each), the new pairs' tied counts
 *   O(their tied instances), the Bradley–Terry refit O(k²·iterations), rank columns O(k log k)
 *   — R·(n·(1 + k) + k²·iterations).
 * - clusters, per clustered aggregation: O(k²) calls of its test (clusters.ts; O(k³) before issue #28).
 * A memo may also be filled ahead of the analysis (fillAnalysisMemo, memo-fill.ts: the per-system
 * and per-pair terms alone, as scores arrive), so that the analysis after the last score has a ≈ 0.
 * Without a memo (a = k) the per-system terms are k·R·n·(3 + w) and dominate at 100 × 100,000;
 * with one, the per-pair O(k²·n/2) counts and the per-resample refits remain. At 1,000 × 2,000
 * (R = 200 by the work budget) ≈ 150 CPU-s: bootstrap 66, pairs 38, point estimates 28, clusters
 * and summaries 9 (docs/adr/0038-arena-boards-pairs-in-tiles.md).
 */

import type { PairOutcome } from './tests/test';

/**
 * One system's reusable resampled statistics (resample r at index r). Resample r's counts are the
 * r-th draw of the seeded generator whatever R is, so columns of another R serve as far as they
 * reach (the automatic R moves with the number of systems) and the rest is computed.
 */
export interface SystemMemo {
  /** Resampled means (Σ c·x / n). */
  mean: Float64Array;
  /** Resampled medians. */
  median: Float64Array;
  /** Resampled corpus scores (empty without corpus statistics). */
  corpus: Float64Array;
  /** Randomisation trials' swapped sums (empty when the AR test was not computed). */
  arSums: Float64Array;
  /**
   * The system's corpus statistics summed over all instances (empty without them; absent in
   * memos of before issue #28's last step): with `corpus` covering every resample, the analysis
   * needs none of the system's statistics ({@link corpusStatsNeeded}).
   */
  corpusTotals?: Float64Array;
  /**
   * The system's median score (oriented), absent in memos of before: a kept system's point median
   * is read, not selected again (O(n) each, half a second for 100 systems at 100,000 instances).
   */
  pointMedian?: number;
}

/** One ordered pair's reusable tests (the differences a − b of its two rows). */
export interface PairMemo {
  /** The median of the differences, as the analysis computed it. */
  medianDiff: number;
  /** The outcomes of the computed tests that declare `memoisable` (tests/test.ts, e.g. the t-test and Wilcoxon), by test key. */
  outcomes: Record<string, PairOutcome>;
  /**
   * For a pair with ties: Σ of the bootstrap counts over the instances it ties on, per resample
   * (the Bradley–Terry refits' N_ij = n − tied). Absent without ties, in memos of before, or
   * beyond TIE_MEMO_MAX_CELLS (bootstrap.ts).
   */
  tied?: Int32Array;
  /**
   * The pair's wins both ways, [a beats b, b beats a] in the order of its key (absent in memos of
   * before): with most pairs' wins kept, the analysis counts only the new pairs' and takes the
   * beats counts and ties from each instance's sorted scores (pairwiseCountsKept).
   */
  wins?: readonly [number, number];
}

/**
 * A memo of analyses (`AnalyseOptions.memo`): give an empty one ({@link emptyAnalysisMemo}) and
 * keep it; each analysis reads what matches and replaces the contents with its own systems and
 * pairs. Keys are the caller's fingerprints of the systems' rows (`AnalyseOptions.fingerprints`).
 */
export interface AnalysisMemo {
  /** The context every entry was computed in; another context empties the memo. */
  context: string;
  systems: Map<string, SystemMemo>;
  /** Key `${fingerprintA}\u0000${fingerprintB}` in the order the pair was computed. */
  pairs: Map<string, PairMemo>;
}

export function emptyAnalysisMemo(): AnalysisMemo {
  return { context: '', systems: new Map(), pairs: new Map() };
}

/** Makes `memo` one of `context`: a memo of another context is emptied first (none of its entries applies). */
export function adoptMemoContext(memo: AnalysisMemo, context: string): void {
  if (memo.context === context) return;
  memo.context = context;
  memo.systems = new Map();
  memo.pairs = new Map();
}

export const pairMemoKey = (a: string, b: string): string => `${a}\u0000${b}`;

/** What a memo saved in one analysis (for logs and the bench). */
export interface MemoUse {
  systemsReused: number;
  systemsComputed: number;
  pairsReused: number;
  pairsComputed: number;
}
