export * from './leaderboard.types';
export * from './view';
export { leaderboardEntries, type LeaderboardEntries, type EntryCandidate } from './leaderboard-entries';
export {
  combinablePairs,
  combineMatrices,
  combinedKey,
  combinedWeightFor,
  isCombinedKey,
  resolveCombined,
  COMBINED_PREFIX,
  type CombinedMetric,
  type CombinedMatrix,
} from './combined-metric';
export { PhaseMetrics, COMBINED_CORPUS_NOTE, taskMetrics, kindFromDb, type MetricSelection, type PhaseForMetrics } from './phase-metrics';
export {
  metricHigherIsBetter,
  recommendedResamples,
  smallestReachableP,
  registeredMethods,
  CLUSTER_DEFINITION,
  CORRECTIONS,
  PAIRED_TESTS,
  TEST_LABELS,
  type PairedTestDescriptor,
  type RegisteredMethod,
} from './ranking.adapter';
export { corpusStatistics, corpusMetricOf, corpusScoresOnPart, type CorpusStatistics } from './corpus-statistics';
export { computeLeaderboard, fillViewMemo, LeaderboardInputs, MEMO_MIN_CELLS, topDisagreement, type AnalysisStage } from './compute';
export { DEFAULT_PAIRS_APART_ABOVE, encodePairTile, PAIR_TILE, pairsApartOf, readPairsApart, tileOrder, tilePairs, type PairsApart, type PairTile, type PairTileJson } from './pair-tiles';
export { encodeLeaderboard, leaderboardJson, parseLeaderboardDocument, parseLeaderboardDocumentLazily, reviseStoredBoard, storedBoardMetric, upgradeStoredBoard, asServed, pairTestField, pairTestsOf, type EncodeOptions, type LeaderboardDocument } from './document';
export { computePhaseBoards, defaultViews, type ComputedBoard, type PhaseBoardsOptions, type PhaseBoardsSummary } from './phase-boards';
export { abortsComputation, isStaleWork, staleWork, type StaleVerdict, DEFAULT_VIEW_KEY, STALE_BOARD_BOUND_MS } from './staleness';
export { computeInThread, type ThreadInput, type ThreadOptions, type ThreadSummary } from './thread-runner';
export { BoardColumnCache, ThreadColumnCache, type SharedScoreColumn } from './column-cache';
export { BOARD_THREAD_NICENESS, SCHED_IDLE_POLICY, schedTimes, StarvationWatch, type BoardYield, type SchedTimes, type Yielded } from './thread-priority';
export { instanceSplitSchema, parseStoredSplit, publicPositions, scoringPart, scoringPartNote, pickRows, MAX_SPLIT_IDS, type InstanceSplit, type ScoringPart, type ScoringPartName } from './instance-split';
export { parseMemo, serialiseMemo, systemFingerprints, type MemoStore } from './memo';
