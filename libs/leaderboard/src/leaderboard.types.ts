// The leaderboard document: the one statement of its shape. Workers compute and store it, the
// API serves it (`leaderboard.json`, and GraphQL types built from this schema: object names and
// descriptions in `.meta({ id, description })`, field descriptions in `.describe()`, `graphql: 'ID'`
// for identifiers, `.int()` for GraphQL Int; apps/api/src/leaderboard/zod-graphql.ts), the web
// reads it through a fragment checked against it (apps/api/src/leaderboard/leaderboard-shape.spec.ts). Per-method results are a list keyed by method (`values`), described by `methods`,
// so a ranking method added to @podium/ranking reaches every consumer without a field of its own.
import { CORRECTIONS, SENTENCE_TESTS, type Correction, type SentenceTestName } from './ranking.adapter';
import { z } from 'zod';

/**
 * The tests a view may choose (the sentence-level tests of @podium/ranking's registry), as an
 * enum-like object: GraphQL name (the key in upper case) → key. A test added to the registry
 * becomes a value here, in the GraphQL enum `PairedTest` and in the web's generated types.
 */
export const PairedTest = Object.fromEntries(SENTENCE_TESTS.map((key) => [key.toUpperCase(), key])) as { readonly [K in SentenceTestName as Uppercase<K>]: K };
export type PairedTest = SentenceTestName;

/**
 * The multiple-comparison corrections of @podium/ranking (`CORRECTIONS`), as an enum-like object:
 * GraphQL name (the key in upper case) → key, like {@link PairedTest}.
 */
export const PValueCorrection = Object.fromEntries(CORRECTIONS.map(({ key }) => [key.toUpperCase(), key])) as { readonly [K in Correction as Uppercase<K>]: K };
export type PValueCorrection = Correction;

const num = z.number();
const nullableNum = z.number().nullable();

export const intervalSchema = z.object({ low: nullableNum, high: nullableNum }).meta({ id: 'Interval', description: '95% interval; null bounds are unbounded or undefined' });
export const rankIntervalSchema = z.object({ best: z.number().int(), worst: z.number().int() }).meta({ id: 'RankInterval', description: 'Bootstrap 95% interval of a rank (best, worst)' });
export const systemRanksSchema = z.object({ mean: z.number().int(), median: z.number().int(), bt: z.number().int().describe('Bradley–Terry'), elo: z.number().int(), trueskill: z.number().int(), corpus: z.number().int().nullable().describe('By the corpus score (corpus-level metrics only)') }).meta({ id: 'SystemRanks' });
export const systemRankIntervalsSchema = z.object({
  mean: rankIntervalSchema,
  median: rankIntervalSchema,
  bt: rankIntervalSchema,
  elo: rankIntervalSchema.nullable().describe('2.5–97.5 percentile of ranks over random game orders (order sensitivity, not sampling)'),
  trueskill: rankIntervalSchema.nullable().describe('2.5–97.5 percentile of ranks over random game orders (order sensitivity, not sampling)'),
  corpus: rankIntervalSchema.nullable().describe('Bootstrap (paired-bs resamples) rank interval of the corpus score'),
}).meta({ id: 'SystemRankIntervals', description: 'Rank intervals per aggregation: bootstrap over instances for mean, median, BT and corpus; the spread over random game orders for Elo and TrueSkill' });
export const systemClustersSchema = z.object({ mean: z.number().int(), median: z.number().int(), bt: z.number().int(), corpus: z.number().int().nullable() }).meta({ id: 'SystemClusters', description: 'Significance cluster (1 = top) under each aggregation; see Leaderboard.clusterDefinition' });
export const corpusIntervalSchema = z.object({ mean: nullableNum, ci: nullableNum, low: nullableNum, high: nullableNum }).meta({ id: 'CorpusInterval', description: "sacreBLEU's paired-bs \"mean ± CI\": the mean of the bootstrap corpus scores, the half-width (upper − lower)/2 and the order statistics ⌊R/40⌋ and R − ⌊R/40⌋ − 1" });
export const clusterTestSchema = z.object({ aggregation: z.string().describe('mean | median | bt | corpus'), test: z.string().describe('Test key, as in SystemPair.testResults'), label: z.string().describe('The test in words') }).meta({ id: 'ClusterTest', description: 'The test behind one aggregation’s clusters' });
export const pairSignificanceSchema = z.object({ mean: z.boolean(), median: z.boolean(), bt: z.boolean(), corpus: z.boolean().nullable() }).meta({ id: 'PairSignificance', description: 'Whether a pair differs significantly under each aggregation’s cluster test (corrected p < α, direction agreeing)' });
export const btComponentSchema = z.object({ tier: z.number().int().describe('Dominance tier, 0 = no other group beats it'), systems: z.array(z.string()) }).meta({ id: 'BtComponent', description: 'A strongly connected component of the Bradley–Terry win graph' });
export const trueSkillRatingSchema = z.object({ mu: nullableNum, sigma: nullableNum }).meta({ id: 'TrueSkillRating' });

/** What a board says about one ranking method (from @podium/ranking's registry). */
export const methodDescriptorSchema = z.object({
  key: z.string().describe('Key, as in MethodValue.method (e.g. mean, bt, mean_win_rate)'),
  label: z.string(),
  description: z.string().describe('What the value is, in one sentence'),
  intervalKind: z.string().describe("How rank intervals are made: 'bootstrap' (over instances) or 'game order' (spread over random game orders)"),
  direction: z.string().describe("'metric' (values in the metric's direction) or 'higher is better'"),
  clusters: z.boolean().describe('Whether the method has significance clusters on this board'),
  test: z.string().nullable().describe('Key of the test behind its clusters (as in SystemPair.testResults); null without clusters'),
  testLabel: z.string().nullable().describe('That test in words'),
}).meta({ id: 'MethodDescriptor', description: 'A ranking method of the board (from the ranking library’s registry): how to read its values in `LeaderboardSystem.values`' });

/** One system's results under one ranking method. */
export const methodValueSchema = z.object({
  method: z.string().describe('MethodDescriptor.key'),
  value: nullableNum,
  interval: intervalSchema.nullable().describe('95% interval of the value; null when the method has none'),
  rank: z.number().int(),
  rankInterval: rankIntervalSchema.describe('95% rank interval (see MethodDescriptor.intervalKind)'),
  cluster: z.number().int().nullable().describe('Significance cluster (1 = top); null when the method has no clusters'),
}).meta({ id: 'MethodValue', description: 'One system under one ranking method' });

export const leaderboardSystemSchema = z.object({
  submissionId: z.string().meta({ graphql: 'ID' }),
  system: z.string(),
  team: z.string(),
  isBaseline: z.boolean(),
  n: z.number().int().describe('Instances scored'),
  corpusScore: z.number().nullable().describe('Corpus-level score (e.g. corpus BLEU): the main column for corpus-level metrics'),
  corpusCi: corpusIntervalSchema.nullable().describe("Bootstrap of the corpus score (sacreBLEU's mean ± CI); corpus-level metrics only"),
  corpusSignature: z.string().describe('Signature of the corpus score'),
  signature: z.string().describe('Signature of the instance scores'),
  mean: num,
  meanCi: intervalSchema,
  median: num,
  medianCi: intervalSchema,
  bt: z.number().nullable().describe('Bradley–Terry strength within its win-graph component (sums to 1 per component; over all systems when btFiniteMle)'),
  btTier: z.number().int().describe('Dominance tier of the Bradley–Terry component (0 = top)'),
  btCi: intervalSchema,
  elo: nullableNum,
  trueskill: trueSkillRatingSchema,
  rank: systemRanksSchema,
  rankInterval: systemRankIntervalsSchema,
  cluster: systemClustersSchema,
  clusterDisagreement: z.boolean().describe('In a pair whose cluster relation differs between mean, median and BT'),
  values: z.array(methodValueSchema).describe('Every ranking method of Leaderboard.methods, in that order'),
}).meta({ id: 'LeaderboardSystem' });

/** A registered test's p-value for a pair (unadjusted; null where not computed). */
export const pairTestResultSchema = z.object({
  test: z.string().describe('The test’s registry key, as in SignificanceTest.key'),
  p: z.number().nullable().describe('Unadjusted p; null where the test was not computed'),
}).meta({ id: 'PairTestResult', description: "One registered test's unadjusted p-value for a pair" });

export const systemPairSchema = z.object({
  aSubmissionId: z.string().meta({ graphql: 'ID' }),
  bSubmissionId: z.string().meta({ graphql: 'ID' }),
  a: z.string(),
  b: z.string(),
  wins: z.number().int().describe('Instances where a is strictly better'),
  losses: z.number().int(),
  ties: z.number().int(),
  pBt: z.number().nullable().describe('Bradley–Terry P(a beats b)'),
  medianDiff: z.number().nullable().describe('Median of paired differences'),
  meanDiff: nullableNum,
  p: z.number().nullable().describe("p-value of the leaderboard's test"),
  pAdjusted: z.number().nullable().describe('p after the multiple-comparison correction'),
  testResults: z.array(pairTestResultSchema).describe('Every registered test computed for the pair, in the registry’s order (corpus tests only for corpus-level metrics)'),
  pTest: z.string().describe('Key of the test behind p and pAdjusted (the corpus analogue for corpus-level metrics when bootstrap or ar is chosen)'),
  significant: pairSignificanceSchema,
}).meta({ id: 'SystemPair', description: 'Head-to-head comparison of systems a and b; differences are a − b' });

/** Which instances of a split phase a board ranks on. */
export const scoredOnSchema = z.object({
  part: z.string().describe('public, private or all'),
  /** Instances ranked on. */
  instances: z.number().int(),
  /** Instances in the test set. */
  total: z.number().int(),
  note: z.string().describe('e.g. "ranked on the private part: 700 of 1000 instances"'),
}).meta({ id: 'ScoredOn', description: 'Which instances of a split phase the board ranks on (the public part before publishing, the private part or all after)' });

/** One computed leaderboard (what is stored as JSON). */
export const computedLeaderboardSchema = z.object({
  phaseId: z.string().meta({ graphql: 'ID' }),
  metric: z.string().describe('Metric key'),
  higherIsBetter: z.boolean(),
  metricSignature: z.string().describe('Signature shared by the instance scores (the most common one if they differ)'),
  availableMetrics: z.array(z.string()).describe('Metric keys with scores in this phase, then the combined metrics (`combined:<nli>+<other>`) computable from them'),
  test: z.enum(PairedTest).describe('Test behind `p` and `pAdjusted` of the pairs'),
  correction: z.enum(PValueCorrection),
  seed: z.number().int().describe("The phase's seed (organiser setting)"),
  resamples: z.number().int().describe('Bootstrap resamples and randomisation trials used'),
  resamplesChosen: z.boolean().describe('True when resamples were chosen from the number of pairs, α and correction (the phase sets none)'),
  smallestReachableP: z.number().describe('Smallest corrected p a resampling test can reach: min(1, pairs/(resamples + 1)) with Holm/BH, 1/(resamples + 1) without'),
  alpha: num,
  significanceWarnings: z.array(z.string()).describe('Plain-language warnings, e.g. that resampling tests cannot reach significance at this size'),
  mainAggregation: z.string().describe("'corpus' for corpus-level metrics (BLEU, chrF, TER: ranked by the corpus score), else 'mean'"),
  corpusSignature: z.string().describe('Signature of the corpus score (the most common one)'),
  clusterDefinition: z.string().describe('The cluster rule in words'),
  clusterTests: z.array(clusterTestSchema).describe('The test behind each aggregation’s clusters'),
  methods: z.array(methodDescriptorSchema).describe('The ranking methods of LeaderboardSystem.values, in table order'),
  btFiniteMle: z.boolean().describe('True when the Bradley–Terry win graph is strongly connected, so a finite maximum-likelihood estimate exists'),
  btNote: z.string().nullable().describe('Why Bradley–Terry has no finite MLE, in words'),
  btComponents: z.array(btComponentSchema),
  instanceCount: z.number().int(),
  scoredOn: scoredOnSchema.nullable().describe('The part of a split phase ranked on; null without a split'),
  systems: z.array(leaderboardSystemSchema).describe('Ordered by the main aggregation’s rank (corpus or mean)'),
  pairs: z.array(systemPairSchema),
  disagreement: z.string().nullable().describe('Set when mean, median and Bradley–Terry disagree about the top system'),
  notes: z.array(z.string()).describe('Caveats: systems left out, differing signatures, too few systems'),
});

/** A stored leaderboard as served: the computed board and where it stands against the phase's current data. */
export const leaderboardSchema = computedLeaderboardSchema.extend({
  updating: z.boolean().describe("True while the phase's current data is still being ranked: this is the previous version (or, before the first, an empty board)"),
  stamp: z.string().describe('Hash of everything this board was computed from (scores, moderation, primary and baseline flags, significance settings, publication); empty before the first'),
  computedAt: z.date().nullable().describe('When a worker computed this board'),
}).meta({ id: 'Leaderboard' });

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

/** An object schema of the document (what the api builds a GraphQL type from). */
export type LeaderboardObjectSchema = z.ZodObject;
