// The leaderboard document: the one statement of its shape. Workers compute and store it, the
// API serves it (`leaderboard.json`, and GraphQL types checked against this schema by
// apps/api/src/leaderboard/leaderboard-shape.spec.ts), the web reads it through a fragment checked
// the same way. Per-method results are a list keyed by method (`values`), described by `methods`,
// so a ranking method added to @podium/ranking reaches every consumer without a field of its own.
import { SENTENCE_TESTS, type SentenceTestName } from './ranking.adapter';
import { z } from 'zod';

/**
 * The tests a view may choose (the sentence-level tests of @podium/ranking's registry), as an
 * enum-like object: GraphQL name (the key in upper case) → key. A test added to the registry
 * becomes a value here, in the GraphQL enum `PairedTest` and in the web's generated types.
 */
export const PairedTest = Object.fromEntries(SENTENCE_TESTS.map((key) => [key.toUpperCase(), key])) as { readonly [K in SentenceTestName as Uppercase<K>]: K };
export type PairedTest = SentenceTestName;

export enum PValueCorrection {
  HOLM = 'holm',
  BH = 'bh',
  NONE = 'none',
}

const num = z.number();
const nullableNum = z.number().nullable();

export const intervalSchema = z.object({ low: nullableNum, high: nullableNum });
export const rankIntervalSchema = z.object({ best: z.number().int(), worst: z.number().int() });
export const systemRanksSchema = z.object({ mean: num, median: num, bt: num, elo: num, trueskill: num, corpus: nullableNum });
export const systemRankIntervalsSchema = z.object({
  mean: rankIntervalSchema,
  median: rankIntervalSchema,
  bt: rankIntervalSchema,
  elo: rankIntervalSchema.nullable(),
  trueskill: rankIntervalSchema.nullable(),
  corpus: rankIntervalSchema.nullable(),
});
export const systemClustersSchema = z.object({ mean: num, median: num, bt: num, corpus: nullableNum });
export const corpusIntervalSchema = z.object({ mean: nullableNum, ci: nullableNum, low: nullableNum, high: nullableNum });
export const clusterTestSchema = z.object({ aggregation: z.string(), test: z.string(), label: z.string() });
export const pairSignificanceSchema = z.object({ mean: z.boolean(), median: z.boolean(), bt: z.boolean(), corpus: z.boolean().nullable() });
export const btComponentSchema = z.object({ tier: z.number().int(), systems: z.array(z.string()) });
export const trueSkillRatingSchema = z.object({ mu: nullableNum, sigma: nullableNum });

/** What a board says about one ranking method (from @podium/ranking's registry). */
export const methodDescriptorSchema = z.object({
  /** Key of the method, as in `values[].method`. */
  key: z.string(),
  label: z.string(),
  description: z.string(),
  /** 'bootstrap' (over instances) or 'game order' (spread over random game orders). */
  intervalKind: z.string(),
  /** 'metric' (values in the metric's direction) or 'higher is better'. */
  direction: z.string(),
  /** Whether the method has significance clusters on this board. */
  clusters: z.boolean(),
  /** Key of the test behind its clusters (null: no clusters). */
  test: z.string().nullable(),
  /** That test in words (null: no clusters). */
  testLabel: z.string().nullable(),
});

/** One system's results under one ranking method. */
export const methodValueSchema = z.object({
  method: z.string(),
  value: nullableNum,
  interval: intervalSchema.nullable(),
  rank: z.number().int(),
  rankInterval: rankIntervalSchema,
  cluster: z.number().int().nullable(),
});

export const leaderboardSystemSchema = z.object({
  submissionId: z.string(),
  system: z.string(),
  team: z.string(),
  isBaseline: z.boolean(),
  n: z.number().int(),
  corpusScore: nullableNum,
  corpusCi: corpusIntervalSchema.nullable(),
  corpusSignature: z.string(),
  signature: z.string(),
  mean: num,
  meanCi: intervalSchema,
  median: num,
  medianCi: intervalSchema,
  bt: nullableNum,
  btTier: z.number().int(),
  btCi: intervalSchema,
  elo: nullableNum,
  trueskill: trueSkillRatingSchema,
  rank: systemRanksSchema,
  rankInterval: systemRankIntervalsSchema,
  cluster: systemClustersSchema,
  clusterDisagreement: z.boolean(),
  /** Every method of the board's `methods`, in that order. */
  values: z.array(methodValueSchema),
});

/** A registered test's p-value for a pair (unadjusted; null where not computed). */
export const pairTestResultSchema = z.object({
  /** The test's registry key (e.g. ttest, bootstrap_corpus). */
  test: z.string(),
  p: nullableNum,
});

export const systemPairSchema = z.object({
  aSubmissionId: z.string(),
  bSubmissionId: z.string(),
  a: z.string(),
  b: z.string(),
  wins: z.number().int(),
  losses: z.number().int(),
  ties: z.number().int(),
  pBt: nullableNum,
  medianDiff: nullableNum,
  meanDiff: nullableNum,
  p: nullableNum,
  pAdjusted: nullableNum,
  /** Every registered test computed for the pair, in the registry's order (corpus tests only for corpus-level metrics). */
  testResults: z.array(pairTestResultSchema),
  pTest: z.string(),
  significant: pairSignificanceSchema,
});

/** Which instances of a split phase a board ranks on. */
export const scoredOnSchema = z.object({
  /** 'public' before publishing; 'private' (or 'all', as configured) after. */
  part: z.string(),
  /** Instances ranked on. */
  instances: z.number().int(),
  /** Instances in the test set. */
  total: z.number().int(),
  /** "ranked on the private part: 700 of 1000 instances". */
  note: z.string(),
});

/** One computed leaderboard (what is stored as JSON). */
export const computedLeaderboardSchema = z.object({
  phaseId: z.string(),
  metric: z.string(),
  higherIsBetter: z.boolean(),
  metricSignature: z.string(),
  availableMetrics: z.array(z.string()),
  test: z.enum(PairedTest),
  correction: z.enum(PValueCorrection),
  seed: z.number().int(),
  resamples: z.number().int(),
  resamplesChosen: z.boolean(),
  smallestReachableP: num,
  alpha: num,
  significanceWarnings: z.array(z.string()),
  mainAggregation: z.string(),
  corpusSignature: z.string(),
  clusterDefinition: z.string(),
  clusterTests: z.array(clusterTestSchema),
  /** The ranking methods of `systems[].values`, in table order. */
  methods: z.array(methodDescriptorSchema),
  btFiniteMle: z.boolean(),
  btNote: z.string().nullable(),
  btComponents: z.array(btComponentSchema),
  instanceCount: z.number().int(),
  /** The part of a split phase the board ranks on (docs/adr/0014); null without a split. */
  scoredOn: scoredOnSchema.nullable(),
  systems: z.array(leaderboardSystemSchema),
  pairs: z.array(systemPairSchema),
  disagreement: z.string().nullable(),
  notes: z.array(z.string()),
});

/** A stored leaderboard as served: the computed board and where it stands against the phase's current data. */
export const leaderboardSchema = computedLeaderboardSchema.extend({
  /** True while the phase's current scoring stamp is still being computed (this is an older version, or empty). */
  updating: z.boolean(),
  /** The scoring stamp this board was computed for ('' when none was computed yet). */
  stamp: z.string(),
  /** When it was computed (null when none was computed yet). */
  computedAt: z.date().nullable(),
});

export type Interval = z.infer<typeof intervalSchema>;
export type RankInterval = z.infer<typeof rankIntervalSchema>;
export type SystemRanks = z.infer<typeof systemRanksSchema>;
export type SystemRankIntervals = z.infer<typeof systemRankIntervalsSchema>;
export type SystemClusters = z.infer<typeof systemClustersSchema>;
export type CorpusInterval = z.infer<typeof corpusIntervalSchema>;
export type ClusterTest = z.infer<typeof clusterTestSchema>;
export type PairSignificance = z.infer<typeof pairSignificanceSchema>;
export type BtComponent = z.infer<typeof btComponentSchema>;
export type TrueSkillRating = z.infer<typeof trueSkillRatingSchema>;
export type MethodDescriptor = z.infer<typeof methodDescriptorSchema>;
export type MethodValue = z.infer<typeof methodValueSchema>;
export type LeaderboardSystem = z.infer<typeof leaderboardSystemSchema>;
export type PairTestResult = z.infer<typeof pairTestResultSchema>;
export type SystemPair = z.infer<typeof systemPairSchema>;
export type ScoredOn = z.infer<typeof scoredOnSchema>;
export type ComputedLeaderboard = z.infer<typeof computedLeaderboardSchema>;
export type Leaderboard = z.infer<typeof leaderboardSchema>;
