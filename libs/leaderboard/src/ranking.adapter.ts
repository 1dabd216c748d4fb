// The one place that talks to @podium/ranking and @podium/metrics for the leaderboard, so the
// API's types do not follow every change of theirs.
import {
  analyseSystems,
  fillAnalysisMemo,
  corpusStatsNeeded,
  CLUSTER_DEFINITION,
  CORRECTIONS,
  describeMethod,
  rankingMethod,
  mean,
  median,
  recommendedResamples,
  smallestReachableP,
  TEST_LABELS,
  PAIRED_TESTS,
  RANKING_METHODS,
  SENTENCE_TESTS,
  type AnalyseOptions,
  type Analysis,
  type AnalysisMemo,
  type MemoFill,
  type MemoUse,
  type Correction,
  type FlatCorpusStats,
  type PairedTestDescriptor,
  type SentenceTestName,
  type TestName,
} from '@podium/ranking';
import { at } from '@podium/contracts';

export type { Analysis, Correction, FlatCorpusStats, PairedTestDescriptor, SentenceTestName, TestName };
export { CLUSTER_DEFINITION, CORRECTIONS, PAIRED_TESTS, SENTENCE_TESTS, TEST_LABELS, recommendedResamples, smallestReachableP };

/** A registered ranking method, as the `rankingMethods` query serves it (its default cluster test, if it has clusters). */
export interface RegisteredMethod {
  key: string;
  label: string;
  description: string;
  intervalKind: string;
  direction: string;
  clusterTest: string | null;
}

/** Every registered ranking method, in table order (@podium/ranking's methods/registry.ts). */
export function registeredMethods(): RegisteredMethod[] {
  return RANKING_METHODS.map(({ key, label, description, intervalKind, direction, clusterTest }) => ({ key, label, description, intervalKind, direction, clusterTest: clusterTest ?? null }));
}

export interface RankingInput {
  /** Unique system keys (the API uses submission ids). */
  systems: string[];
  instances: string[];
  scores: ArrayLike<number>[];
  higherIsBetter: boolean;
}

export interface RankingOptions {
  test?: TestName;
  correction: Correction;
  seed: number;
  /** Undefined: chosen by the ranking library from the number of pairs, α and correction. */
  resamples?: number;
  /** Systems the automatic resample count is priced for (AnalyseOptions.budgetSystems). */
  budgetSystems?: number;
  /** Per-instance sufficient statistics of a corpus-level metric (systems in input order). */
  corpus?: AnalyseOptions['corpus'];
  /** What the previous analysis of the view kept (ADR 0027), with the systems' fingerprints (input order). */
  memo?: { memo: AnalysisMemo; fingerprints: string[]; onUse?: (use: MemoUse) => void };
}

/** The analysis options of {@link RankingOptions}: one mapping for {@link rankSystems} and {@link corpusStatsNeededFor}. */
function analyseOptions(options: RankingOptions): AnalyseOptions {
  return {
    seed: options.seed,
    correction: options.correction,
    ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
    ...(options.budgetSystems !== undefined ? { budgetSystems: options.budgetSystems } : {}),
    ...(options.test ? { test: options.test } : {}),
    ...(options.corpus ? { corpus: options.corpus } : {}),
    ...(options.memo ? { memo: options.memo.memo, fingerprints: options.memo.fingerprints, ...(options.memo.onUse ? { onMemoUse: options.memo.onUse } : {}) } : {}),
  };
}

/**
 * Whose corpus statistics (input order) {@link rankSystems} will read with these options: the
 * others' the memo holds, and may be given as empty arrays (`options.corpus.stats` needs only
 * its width here). See @podium/ranking's corpusStatsNeeded.
 */
export function corpusStatsNeededFor(input: Omit<RankingInput, 'scores'>, options: RankingOptions): boolean[] {
  if (input.systems.length < 2) return input.systems.map(() => true);
  return corpusStatsNeeded({ systems: input.systems, instances: input.instances, higherIsBetter: input.higherIsBetter }, analyseOptions(options));
}

/**
 * Fills the memo of `options` ahead of the analysis with these inputs and options (@podium/ranking's
 * fillAnalysisMemo): what the analysis would keep for the systems and pairs the memo lacks.
 */
export function fillMemoFor(input: RankingInput, options: RankingOptions & { memo: NonNullable<RankingOptions['memo']> }, systemsAtMost?: number): MemoFill {
  const { memo, ...rest } = options;
  return fillAnalysisMemo({ systems: input.systems, instances: input.instances, scores: input.scores, higherIsBetter: input.higherIsBetter }, { ...analyseOptions(rest), memo: memo.memo, fingerprints: memo.fingerprints, ...(systemsAtMost === undefined ? {} : { systemsAtMost }) });
}

/** Runs the full analysis; with a single system only its descriptive numbers exist. */
export function rankSystems(input: RankingInput, options: RankingOptions): Analysis {
  if (input.systems.length >= 2) {
    return analyseSystems({ systems: input.systems, instances: input.instances, scores: input.scores, higherIsBetter: input.higherIsBetter }, analyseOptions(options));
  }
  // One system: only its descriptive numbers (mean and median, rank 1, no intervals).
  const single = ['mean', 'median'].flatMap((key) => {
    const method = rankingMethod(key);
    return method ? [describeMethod(method, null)] : [];
  });
  return {
    methods: single,
    systems: input.systems.map((system, s) => {
      const row = at(input.scores, s);
      const m = mean(row);
      const md = median(row);
      return {
        system,
        n: row.length,
        mean: m,
        median: md,
        bt: Number.NaN,
        bt_ci: [Number.NaN, Number.NaN],
        bt_tier: 0,
        bt_component: 0,
        elo: Number.NaN,
        trueskill: { mu: Number.NaN, sigma: Number.NaN },
        rank: { mean: 1, median: 1, bt: 1, elo: 1, trueskill: 1 },
        rank_ci: { mean: [1, 1], median: [1, 1], bt: [1, 1] },
        mean_ci: [Number.NaN, Number.NaN],
        median_ci: [Number.NaN, Number.NaN],
        cluster: { mean: 1, median: 1, bt: 1 },
        cluster_disagreement: false,
        methods: {
          mean: { value: m, interval: null, rank: 1, rank_ci: [1, 1], cluster: null },
          median: { value: md, interval: null, rank: 1, rank_ci: [1, 1], cluster: null },
        },
      };
    }),
    bt_structure: { finite_mle: false, components: [], note: null, no_finite_mle_resamples: 0 },
    pairs: [],
    disagreements: [],
    settings: {
      seed: options.seed,
      resamples: options.resamples ?? 0,
      correction: options.correction,
      alpha: 0.05,
      elo_orders: 0,
      cluster_tests: { mean: 'ttest', median: 'mood', bt: 'sign' },
      resamples_chosen: false,
      smallest_reachable_p: 1,
      warnings: [],
      higher_is_better: input.higherIsBetter,
      n_systems: input.systems.length,
      n_instances: input.instances.length,
      bt_nonconverged_resamples: 0,
    },
  };
}

/** Whether larger scores are better for a configured metric: the metric registry's answer. */
export { metricHigherIsBetter } from '@podium/metrics';
