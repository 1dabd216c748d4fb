export { createDb, type Db, type Tx } from './client';
export { IdentityRepository } from './identity.repository';
export { TaskRepository, testSetChecksum, type NewTask, type NewPhase, type NewInstance, type NewHumanScore, type TestSetCommitmentRecord } from './task.repository';
export {
  SubmissionRepository,
  txSql,
  type NewSubmission,
  type StreamedSubmission,
  type OutputWriter,
  copyOutputRowHead,
  ElementSpool,
  SpoolMemory,
  DEFAULT_SPOOL_MEMORY,
  type SubmissionQuota,
  type TxSql,
  type LeaseOutcome,
  type LapsedLease,
  type ScoreColumnInput,
  type InstanceScoreInput,
} from './submission.repository';
export { readOutputTexts, outputTextsAt, outputExtent, writeOutputTexts, writeOutputsById, type StoredOutputs } from './output-texts';
export { BundleRepository, type BundleImport, type BundleImportResult } from './bundle.repository';
export { LifecycleRepository, type AuditRecord, type PhaseChanges, type TaskChanges } from './lifecycle.repository';
export { RobustnessRepository, type RobustnessJobInput, type RobustnessRequest, type ReportLeaseOutcome, type LapsedReportLease } from './robustness.repository';
export { longRowsOf, ScoreRepository, type PhaseScoreMatrix, type ScoredSystem, type LongScoreRow, type LongScoreColumn, type StoredStatistics, type StatisticsDigest, type CachedScoreColumn, type ScoreColumnCache, type ColumnReads } from './score.repository';
export { encodeValues, decodeValues, encodeStats, decodeStats, decodeStatsColumns, decodeStatsFlat, statsShape, type FlatStats, type StatsRows } from './score-column';
export { Role, TaskKind, SubmissionStatus, RobustnessStatus, Moderation, Registration, RegistrationStatus, Prisma } from './generated/client';
export type { Task, Phase, TestSet, Instance, Submission, Team, User, RobustnessReport } from './generated/client';
export { LeaderboardRepository, LEADERBOARD_FORMAT, type CurrentLeaderboard, type PhaseFreshness, type StoredLeaderboardRow, type StoredLeaderboardBytes, type StoredLeaderboardCompressed, type NewStoredLeaderboard, type StoredPairTile } from './leaderboard.repository';
