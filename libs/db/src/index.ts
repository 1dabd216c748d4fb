export { createDb, type Db, type Tx } from './client';
export * from './errors';
export { IdentityRepository, hashToken, newToken, type AuthUser } from './identity.repository';
export { TaskRepository, testSetChecksum, type NewTask, type NewPhase, type NewInstance, type NewHumanScore } from './task.repository';
export { SubmissionRepository, txSql, type NewSubmission, type SubmissionQuota, type TxSql } from './submission.repository';
export { RobustnessRepository, type RobustnessJobInput, type RobustnessRequest } from './robustness.repository';
export { ScoreRepository, type PhaseScoreMatrix, type ScoredSystem, type LongScoreRow } from './score.repository';
export { Role, TaskKind, SubmissionStatus, RobustnessStatus, Prisma } from './generated/client';
export type { Task, Phase, TestSet, Instance, Submission, Team, User, RobustnessReport } from './generated/client';
