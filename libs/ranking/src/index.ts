export { mulberry32, shuffleInPlace, bootstrapCounts, type Rng } from './prng';
export {
  logGamma,
  regularizedIncompleteBeta,
  regularizedGammaP,
  regularizedGammaQ,
  erfc,
  normalCdf,
  normalPdf,
  normalQuantile,
  studentTCdf,
  studentTTwoSidedP,
  chiSquareSf,
  binomialTwoSidedP,
} from './special-functions';
export { mean, median, sampleVariance, percentile, percentileOfSorted, argsortAscending } from './descriptive';
export { buildScoreTable, RankingInputError, type ScoreTable, type ScoreRow } from './score-table';
export { rankDescending, kendallTau } from './ranks';
export {
  countWins,
  fitBradleyTerry,
  fitBradleyTerrySufficient,
  bradleyTerryProbability,
  BradleyTerryConvergenceError,
  winGraphComponents,
  type WinGraphStructure,
  type BradleyTerryOptions,
  type BradleyTerryFit,
} from './bradley-terry';
export {
  pairedTTest,
  wilcoxonSignedRank,
  signTest,
  moodMedianTest,
  type TestResult,
  type WilcoxonResult,
} from './paired-tests';
export {
  pairedBootstrap,
  approximateRandomization,
  pairedBootstrapCorpus,
  approximateRandomizationCorpus,
  type CorpusFromStats,
  type ResamplingOptions,
  type ResamplingResult,
} from './resampling';
export {
  pairedCorpusResampling,
  sacrebleuInterval,
  flatCorpusStats,
  isFlatCorpusStats,
  type CorpusResampling,
  type CorpusResamplingOptions,
  type CorpusStatsInput,
  type FlatCorpusStats,
  type StatsArray,
} from './corpus-resampling';
export { holm, benjaminiHochberg, adjustPValues, CORRECTIONS, type Correction } from './correction';
export { clusters } from './clusters';
export {
  elo,
  eloRuns,
  trueSkill,
  trueSkillRuns,
  trueSkillUpdate,
  type EloOptions,
  type TrueSkillOptions,
  type TrueSkillRating,
  type GameOrderOptions,
  defaultGameOrders,
  instancesPerOrder,
  MAX_GAMES_PER_ORDER,
} from './rating-systems';
export {
  analyseSystems,
  corpusStatsNeeded,
  bradleyTerryNote,
  recommendedResamples,
  budgetedResamples,
  PER_PAIR_RESAMPLE_COST,
  RESAMPLE_WORK_BUDGET,
  MIN_BUDGETED_RESAMPLES,
  WILCOXON_ALL_PAIRS_CELLS,
  smallestReachableP,
  significanceWarnings,
  CLUSTER_DEFINITION,
  TEST_LABELS,
  DEFAULT_CLUSTER_TESTS,
  type AnalyseOptions,
  type Analysis,
  type SystemSummary,
  type PairSummary,
  type StatP,
  type ClusterDisagreement,
  type TestName,
  type ClusteredAggregation,
  type MethodValue,
  type PairTestResults,
  type TestResultOfPair,
} from './analyse';
export { RANKING_METHODS, rankingMethod } from './methods/registry';
export { describeMethod, type RankingMethod, type MethodDescriptor, type MethodContext, type MethodEstimate, type IntervalKind, type MethodDirection } from './methods/method';
export { instanceWinRates } from './methods/mean-win-rate';
export {
  PAIRED_TESTS,
  SIGNIFICANCE_TESTS,
  TEST_NAMES,
  SENTENCE_TESTS,
  CORPUS_TESTS,
  isTestName,
  significanceTest,
  type PairedTestDescriptor,
  type SentenceTestName,
  type CorpusTestName,
} from './tests/registry';
export type { SignificanceTest, TestSetup, PairInput, PairOutcome } from './tests/test';
export { bootstrapBradleyTerry, type BootstrapOptions, type BradleyTerryBootstrap } from './bootstrap';
export { resampleWins, RESAMPLE_BATCH, type ResampleWins, type ResampleWinsOptions } from './resample-wins';
export { emptyAnalysisMemo, pairMemoKey, type AnalysisMemo, type SystemMemo, type PairMemo, type MemoUse } from './analysis-memo';
export { fillAnalysisMemo, type MemoFill } from './memo-fill';
