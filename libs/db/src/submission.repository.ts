import type { Db, Tx } from './client';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from './errors';
import { Prisma, SubmissionStatus } from './generated/client';

export interface NewSubmission {
  phaseId: string;
  teamId: string;
  submittedById: string;
  systemName: string;
  description: string;
  checksum: string;
  isBaseline?: boolean;
  /** Output text per instance id (the instance's database id), covering the whole test set. */
  outputs: { instanceId: string; text: string }[];
  /** Time used for the phase window and the daily limit (injectable for tests). */
  now?: Date;
  /** Organisers may submit outside the phase window and beyond limits (baselines, demo). */
  bypassLimits?: boolean;
}

/** Runs SQL inside the caller's transaction; pg-boss's `db` option takes this shape. */
export interface TxSql {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Wraps a Prisma transaction so that other libraries (pg-boss) can write inside it. */
export function txSql(tx: Tx): TxSql {
  return {
    async executeSql(text, values) {
      const rows = await tx.$queryRawUnsafe<unknown[]>(text, ...values);
      return { rows };
    },
  };
}

export interface SubmissionQuota {
  usedToday: number;
  usedTotal: number;
  dailyLimit: number;
  totalLimit: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const INSERT_CHUNK = 5000;

export class SubmissionRepository {
  constructor(private readonly db: Db) {}

  /** Submissions a team made in a phase: in the last 24 hours and in total. */
  async quota(phaseId: string, teamId: string, now = new Date(), tx: Tx | Db = this.db): Promise<SubmissionQuota> {
    const phase = await tx.phase.findUnique({ where: { id: phaseId } });
    if (!phase) throw new NotFoundError('phase', phaseId);
    const counted = { phaseId, teamId, isBaseline: false, status: { not: SubmissionStatus.FAILED } };
    const [usedTotal, usedToday] = await Promise.all([
      tx.submission.count({ where: counted }),
      tx.submission.count({ where: { ...counted, createdAt: { gt: new Date(now.getTime() - DAY_MS) } } }),
    ]);
    return { usedToday, usedTotal, dailyLimit: phase.dailyLimit, totalLimit: phase.totalLimit };
  }

  /**
   * Stores a submission with all its outputs and queues its scoring job, in one transaction:
   * either everything is stored and queued, or nothing is. Limits are checked under a
   * per-(team, phase) advisory lock so that concurrent uploads cannot both pass.
   */
  async create(input: NewSubmission, enqueue: (sql: TxSql, submissionId: string) => Promise<void>) {
    const now = input.now ?? new Date();
    return this.db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${input.teamId + '/' + input.phaseId}))`;
        const phase = await tx.phase.findUnique({ where: { id: input.phaseId } });
        if (!phase) throw new NotFoundError('phase', input.phaseId);
        if (!input.bypassLimits) {
          if (now < phase.opensAt) throw new ForbiddenError(`phase '${phase.name}' opens at ${phase.opensAt.toISOString()}`);
          if (now >= phase.closesAt) throw new ForbiddenError(`phase '${phase.name}' closed at ${phase.closesAt.toISOString()}`);
          const q = await this.quota(input.phaseId, input.teamId, now, tx);
          if (q.usedTotal >= q.totalLimit) {
            throw new ForbiddenError(`team has used all ${q.totalLimit} submissions of phase '${phase.name}'`);
          }
          if (q.usedToday >= q.dailyLimit) {
            throw new ForbiddenError(`team has used its ${q.dailyLimit} submissions of the last 24 hours in phase '${phase.name}'`);
          }
        }
        const duplicate = await tx.submission.findFirst({
          where: { phaseId: input.phaseId, teamId: input.teamId, systemName: input.systemName, status: { not: SubmissionStatus.FAILED } },
        });
        if (duplicate) {
          throw new ConflictError(`the team already has a system named '${input.systemName}' in this phase`, { field: 'systemName' });
        }
        const submission = await tx.submission.create({
          data: {
            phaseId: input.phaseId,
            teamId: input.teamId,
            submittedById: input.submittedById,
            systemName: input.systemName,
            description: input.description,
            checksum: input.checksum,
            isBaseline: input.isBaseline ?? false,
            progressTotal: input.outputs.length,
            createdAt: now,
          },
        });
        for (let i = 0; i < input.outputs.length; i += INSERT_CHUNK) {
          await tx.output.createMany({
            data: input.outputs.slice(i, i + INSERT_CHUNK).map((o) => ({ submissionId: submission.id, instanceId: o.instanceId, text: o.text })),
          });
        }
        await enqueue(txSql(tx), submission.id);
        return submission;
      },
      { timeout: 120_000 },
    );
  }

  async byId(id: string) {
    return this.db.submission.findUnique({ where: { id }, include: { team: true, phase: { include: { task: true } } } });
  }

  async ofPhase(phaseId: string, filter: { teamId?: string; status?: SubmissionStatus } = {}) {
    return this.db.submission.findMany({
      where: { phaseId, ...filter },
      orderBy: [{ createdAt: 'asc' }, { systemName: 'asc' }],
      include: { team: true },
    });
  }

  /** Resets submissions for scoring again and queues their jobs, in one transaction. */
  async requeue(submissionIds: string[], enqueue: (sql: TxSql, submissionId: string) => Promise<void>) {
    return this.db.$transaction(async (tx) => {
      for (const id of submissionIds) {
        const updated = await tx.submission.updateMany({
          where: { id, status: { not: SubmissionStatus.SCORING } },
          data: { status: SubmissionStatus.QUEUED, error: null, progressDone: 0 },
        });
        if (updated.count === 0) {
          const exists = await tx.submission.findUnique({ where: { id } });
          if (!exists) throw new NotFoundError('submission', id);
          throw new ConflictError(`submission '${id}' is being scored right now; try again when it finishes`);
        }
        await enqueue(txSql(tx), id);
      }
      return submissionIds.length;
    });
  }

  /** Everything a worker needs to score a submission, in test-set order. */
  async scoringInput(submissionId: string) {
    const submission = await this.db.submission.findUnique({
      where: { id: submissionId },
      include: { phase: { include: { task: true } } },
    });
    if (!submission) return null;
    const outputs = await this.db.output.findMany({
      where: { submissionId },
      include: { instance: { select: { id: true, externalId: true, position: true, source: true, references: true } } },
      orderBy: { instance: { position: 'asc' } },
    });
    return { submission, task: submission.phase.task, outputs };
  }

  /** Marks a queued submission as being scored; false when it is not in a state to score. */
  async markScoring(submissionId: string): Promise<boolean> {
    const r = await this.db.submission.updateMany({
      where: { id: submissionId, status: { in: [SubmissionStatus.QUEUED, SubmissionStatus.SCORING] } },
      data: { status: SubmissionStatus.SCORING, progressDone: 0 },
    });
    return r.count === 1;
  }

  async setProgress(submissionId: string, done: number) {
    await this.db.submission.update({ where: { id: submissionId }, data: { progressDone: done } });
  }

  /**
   * Replaces all scores of a submission and marks it scored, in one transaction, so a retried
   * job never duplicates scores and readers never see half a submission.
   */
  async saveScores(
    submissionId: string,
    instanceScores: { instanceId: string; metric: string; signature: string; value: number }[],
    corpusScores: { metric: string; signature: string; value: number }[],
  ) {
    for (const s of instanceScores) {
      if (!Number.isFinite(s.value)) throw new InvalidInputError(`non-finite ${s.metric} score for instance ${s.instanceId}`);
    }
    await this.db.$transaction(
      async (tx) => {
        await tx.instanceScore.deleteMany({ where: { submissionId } });
        await tx.corpusScore.deleteMany({ where: { submissionId } });
        for (let i = 0; i < instanceScores.length; i += INSERT_CHUNK) {
          await tx.instanceScore.createMany({ data: instanceScores.slice(i, i + INSERT_CHUNK).map((s) => ({ submissionId, ...s })) });
        }
        await tx.corpusScore.createMany({ data: corpusScores.map((s) => ({ submissionId, ...s })) });
        const total = await tx.output.count({ where: { submissionId } });
        await tx.submission.update({
          where: { id: submissionId },
          data: { status: SubmissionStatus.SCORED, error: null, scoredAt: new Date(), progressDone: total, progressTotal: total },
        });
      },
      { timeout: 120_000 },
    );
  }

  async markFailed(submissionId: string, reason: string) {
    await this.db.submission.updateMany({
      where: { id: submissionId },
      data: { status: SubmissionStatus.FAILED, error: reason.slice(0, 2000) },
    });
  }
}

export { Prisma };
