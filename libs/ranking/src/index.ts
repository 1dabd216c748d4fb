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
export { mean, median, sampleVariance, percentile, percentileOfSorted } from './descriptive';
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
  type CorpusResampling,
  type CorpusResamplingOptions,
} from './corpus-resampling';
export { holm, benjaminiHochberg, adjustPValues, type Correction } from './correction';
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
} from './rating-systems';
export {
  analyseSystems,
  bradleyTerryNote,
  recommendedResamples,
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
} from './analyse';
export { bootstrapBradleyTerry, type BootstrapOptions, type BradleyTerryBootstrap } from './bootstrap';
