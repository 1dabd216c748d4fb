import { ConflictError, InvalidInputError, NotFoundError } from '@podium/domain';
import { createHash } from 'node:crypto';
import type { Db } from './client';
import { Prisma, TaskKind, type Registration } from './generated/client';

export interface NewTask {
  slug: string;
  title: string;
  description?: string;
  kind: TaskKind;
  sourceLang: string;
  targetLang: string;
  metrics: Prisma.InputJsonValue;
  combinedWeight?: number | null;
  createdById: string;
  registration?: Registration;
  oneTeamPerPerson?: boolean;
}

export interface NewPhase {
  taskId: string;
  name: string;
  opensAt: Date;
  closesAt: Date;
  dailyLimit: number;
  totalLimit: number;
  leaderboardBeforeClose: boolean;
  teamInstanceScores?: boolean;
  split?: Prisma.InputJsonValue;
}

export interface NewInstance {
  externalId: string;
  source: string;
  references: string[];
  /** Shown to participants with the source (test input); never the references. */
  context?: Record<string, unknown> | null;
}

/** A test set's salted hash commitment (computed by the caller: @podium/contracts commitInstances). */
export interface TestSetCommitmentRecord {
  salt: string;
  commitment: string;
}

export interface NewHumanScore {
  externalId: string;
  systemName: string;
  score: number;
}

/** Order-sensitive checksum of a test set's content. */
export function testSetChecksum(instances: readonly NewInstance[]): string {
  const h = createHash('sha256');
  for (const i of instances) h.update(JSON.stringify(i.context ? [i.externalId, i.source, i.references, i.context] : [i.externalId, i.source, i.references])).update('\n');
  return h.digest('hex');
}

const INSERT_CHUNK = 5000;

export class TaskRepository {
  constructor(private readonly db: Db) {}

  /**
   * Creates the task with its creator as its first organiser; with `audited`, its audit entry
   * (task.create by the creator) in the same transaction.
   */
  async createTask(input: NewTask, audited = false) {
    try {
      return await this.db.$transaction(async (tx) => {
        const task = await tx.task.create({ data: { ...input, organisers: { create: [{ userId: input.createdById }] } } });
        if (audited) {
          await tx.auditEntry.create({
            data: { actorId: input.createdById, action: 'task.create', targetType: 'task', targetId: task.id, details: { taskId: task.id, slug: task.slug, title: task.title } },
          });
        }
        return task;
      });
    } catch (e) {
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') {
        throw new ConflictError(`a task with slug '${input.slug}' already exists`, { field: 'slug' });
      }
      throw e;
    }
  }

  /** The task's organisers by name, with who added each (null for the creator or a backfilled row). */
  async organisersOf(taskId: string) {
    return this.db.taskOrganiser.findMany({
      where: { taskId },
      include: { user: { select: { id: true, name: true } }, addedBy: { select: { name: true } } },
      orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
    });
  }

  /** Adds an organiser to a task with its audit entry in one transaction; idempotent. */
  async addOrganiser(taskId: string, userName: string, actorId: string) {
    return this.db.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { name: userName } });
      if (!user) throw new NotFoundError('user', userName);
      await tx.taskOrganiser.createMany({ data: [{ taskId, userId: user.id, addedById: actorId }], skipDuplicates: true });
      await tx.auditEntry.create({ data: { actorId, action: 'task.addOrganiser', targetType: 'task', targetId: taskId, details: { taskId, userId: user.id, userName } } });
      return user;
    });
  }

  /** Removes an organiser (CONFLICT for the last one) with its audit entry in one transaction. */
  async removeOrganiser(taskId: string, userName: string, actorId: string) {
    return this.db.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { name: userName } });
      if (!user) throw new NotFoundError('user', userName);
      const removed = await tx.taskOrganiser.deleteMany({ where: { taskId, userId: user.id } });
      if (removed.count === 0) throw new NotFoundError('organiser of the task', userName);
      if ((await tx.taskOrganiser.count({ where: { taskId } })) === 0) throw new ConflictError(`'${userName}' is the task's last organiser; add another first`, { field: 'userName' });
      await tx.auditEntry.create({ data: { actorId, action: 'task.removeOrganiser', targetType: 'task', targetId: taskId, details: { taskId, userId: user.id, userName } } });
      return user;
    });
  }

  async updateTaskMetrics(taskId: string, metrics: Prisma.InputJsonValue, combinedWeight: number | null) {
    return this.db.task.update({ where: { id: taskId }, data: { metrics, combinedWeight } });
  }

  async listTasks() {
    return this.db.task.findMany({ orderBy: { createdAt: 'asc' }, include: { phases: { orderBy: { opensAt: 'asc' } } } });
  }

  async taskBySlug(slug: string) {
    return this.db.task.findUnique({ where: { slug }, include: { phases: { orderBy: { opensAt: 'asc' } } } });
  }

  async taskById(id: string) {
    return this.db.task.findUnique({ where: { id } });
  }

  /** Tasks by id in one query (DataLoader batches). */
  async tasksByIds(ids: readonly string[]) {
    return ids.length === 0 ? [] : this.db.task.findMany({ where: { id: { in: [...ids] } } });
  }

  /** Phases by id in one query (DataLoader batches). */
  async phasesByIds(ids: readonly string[]) {
    return ids.length === 0 ? [] : this.db.phase.findMany({ where: { id: { in: [...ids] } } });
  }

  /** Phases of many tasks in one query, each task's by opening date (DataLoader batches). */
  async phasesOfTasks(taskIds: readonly string[]) {
    return taskIds.length === 0 ? [] : this.db.phase.findMany({ where: { taskId: { in: [...taskIds] } }, orderBy: [{ opensAt: 'asc' }, { id: 'asc' }] });
  }

  /** Submissions' paper and code links by id in one query (DataLoader batches; the board's rows). */
  async submissionLinks(ids: readonly string[]) {
    return ids.length === 0 ? [] : this.db.submission.findMany({ where: { id: { in: [...ids] } }, select: { id: true, paperUrl: true, codeUrl: true } });
  }

  /** Test sets by id in one query (DataLoader batches). */
  async testSetsByIds(ids: readonly string[]) {
    return ids.length === 0 ? [] : this.db.testSet.findMany({ where: { id: { in: [...ids] } } });
  }

  /** Creates a phase; with `actorId`, its audit entry (phase.create) in the same transaction. */
  async createPhase(input: NewPhase, actorId?: string) {
    if (input.closesAt <= input.opensAt) throw new InvalidInputError('The close date must be after the open date', { field: 'closesAt' });
    try {
      return await this.db.$transaction(async (tx) => {
        const phase = await tx.phase.create({ data: input });
        if (actorId) {
          const details = {
            taskId: phase.taskId,
            phase: phase.name,
            opensAt: phase.opensAt.toISOString(),
            closesAt: phase.closesAt.toISOString(),
            dailyLimit: phase.dailyLimit,
            totalLimit: phase.totalLimit,
            leaderboardBeforeClose: phase.leaderboardBeforeClose,
            teamInstanceScores: phase.teamInstanceScores,
          };
          await tx.auditEntry.create({ data: { actorId, action: 'phase.create', targetType: 'phase', targetId: phase.id, details } });
        }
        return phase;
      });
    } catch (e) {
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') {
        throw new ConflictError(`the task already has a phase named '${input.name}'`, { field: 'name' });
      }
      throw e;
    }
  }

  /** The leaderboard's significance settings of a phase (resamples null = chosen automatically). */
  /** With `actorId`, its audit entry (phase.significance) in the same transaction. */
  async setPhaseSignificance(phaseId: string, settings: { resamples: number | null; seed: number }, actorId?: string) {
    return this.db.$transaction(async (tx) => {
      const phase = await tx.phase.update({
        where: { id: phaseId },
        data: { significanceResamples: settings.resamples, significanceSeed: settings.seed },
        include: { task: true, testSet: true },
      });
      if (actorId) {
        await tx.auditEntry.create({
          data: { actorId, action: 'phase.significance', targetType: 'phase', targetId: phaseId, details: { taskId: phase.taskId, phase: phase.name, resamples: settings.resamples, seed: settings.seed } },
        });
      }
      return phase;
    });
  }

  async phaseById(id: string) {
    return this.db.phase.findUnique({ where: { id }, include: { task: true, testSet: true } });
  }

  async phasesOfTask(taskId: string) {
    return this.db.phase.findMany({ where: { taskId }, orderBy: { opensAt: 'asc' } });
  }

  /** Number of distinct systems with a scored submission, per phase. */
  async systemCounts(phaseIds: string[]): Promise<Map<string, number>> {
    if (phaseIds.length === 0) return new Map();
    const rows = await this.db.submission.groupBy({
      by: ['phaseId'],
      where: { phaseId: { in: phaseIds }, status: 'SCORED' },
      _count: { _all: true },
    });
    return new Map(rows.map((r) => [r.phaseId, r._count._all]));
  }

  /**
   * Stores a test set with its instances (and optional human scores) and attaches it to the
   * phase, all in one transaction. A phase with submissions keeps its test set.
   */
  async uploadTestSet(phaseId: string, name: string, instances: NewInstance[], humanScores: NewHumanScore[] = [], commitment?: TestSetCommitmentRecord, actorId?: string) {
    return this.db.$transaction(
      async (tx) => {
        const phase = await tx.phase.findUnique({ where: { id: phaseId } });
        if (!phase) throw new NotFoundError('phase', phaseId);
        const submissions = await tx.submission.count({ where: { phaseId } });
        if (submissions > 0) {
          throw new ConflictError(`phase '${phase.name}' already has ${submissions} submissions; its test set cannot change`);
        }
        if (await tx.testSet.findUnique({ where: { taskId_name: { taskId: phase.taskId, name } } })) {
          throw new ConflictError(`the task already has a test set named '${name}'`, { field: 'name' });
        }
        const testSet = await tx.testSet.create({
          data: { taskId: phase.taskId, name, checksum: testSetChecksum(instances), instanceCount: instances.length },
        });
        for (let i = 0; i < instances.length; i += INSERT_CHUNK) {
          await tx.instance.createMany({
            data: instances.slice(i, i + INSERT_CHUNK).map((inst, k) => ({
              testSetId: testSet.id,
              externalId: inst.externalId,
              position: i + k,
              source: inst.source,
              references: inst.references,
              ...(inst.context ? { context: inst.context as Prisma.InputJsonValue } : {}),
            })),
          });
        }
        if (humanScores.length > 0) {
          const ids = new Map(
            (await tx.instance.findMany({ where: { testSetId: testSet.id }, select: { id: true, externalId: true } })).map(
              (r) => [r.externalId, r.id],
            ),
          );
          const data = humanScores.map((h) => {
            const instanceId = ids.get(h.externalId);
            if (!instanceId) throw new InvalidInputError(`human score for unknown instance '${h.externalId}'`, { instanceId: h.externalId });
            return { instanceId, systemName: h.systemName, score: h.score };
          });
          for (let i = 0; i < data.length; i += INSERT_CHUNK) await tx.humanScore.createMany({ data: data.slice(i, i + INSERT_CHUNK) });
        }
        // The commitment is public from now on; its salt only once a phase of it is published (ADR 0014).
        if (commitment) await tx.testSetCommitment.create({ data: { testSetId: testSet.id, salt: commitment.salt, commitment: commitment.commitment } });
        await tx.phase.update({ where: { id: phaseId }, data: { testSetId: testSet.id } });
        if (actorId) {
          await tx.auditEntry.create({
            data: {
              actorId,
              action: 'testset.upload',
              targetType: 'phase',
              targetId: phaseId,
              details: { taskId: phase.taskId, phase: phase.name, testSet: name, instances: instances.length, humanScores: humanScores.length, checksum: testSet.checksum },
            },
          });
        }
        return testSet;
      },
      { timeout: 120_000 },
    );
  }

  /** A test set's commitment without its salt (null: none, e.g. a test set stored before commitments). */
  async commitment(testSetId: string): Promise<{ commitment: string; createdAt: Date } | null> {
    return this.db.testSetCommitment.findUnique({ where: { testSetId }, select: { commitment: true, createdAt: true } });
  }

  /**
   * The salt of a test set's commitment. Callers reveal it only for a published phase
   * (visibility `commitmentSalt`); nothing else reads the column.
   */
  async commitmentSalt(testSetId: string): Promise<string | null> {
    return (await this.db.testSetCommitment.findUnique({ where: { testSetId }, select: { salt: true } }))?.salt ?? null;
  }

  /** Ids, sources and references of a test set, a chunk of instances at a time, in position order (the committed content, ADR 0014). */
  async *committedContent(testSetId: string, chunk = 5000): AsyncGenerator<{ externalId: string; source: string; references: string[] }[]> {
    for (let from = 0; ; from += chunk) {
      const rows = await this.db.instance.findMany({
        where: { testSetId, position: { gte: from, lt: from + chunk } },
        orderBy: { position: 'asc' },
        select: { externalId: true, source: true, references: true },
      });
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < chunk) return;
    }
  }

  /** Instances of a test set in test-set order. */
  async instancesOf(testSetId: string) {
    return this.db.instance.findMany({ where: { testSetId }, orderBy: { position: 'asc' } });
  }

  async instanceIdsOf(testSetId: string) {
    return this.db.instance.findMany({
      where: { testSetId },
      orderBy: { position: 'asc' },
      select: { id: true, externalId: true, position: true },
    });
  }

  async humanScoresOf(testSetId: string) {
    return this.db.humanScore.findMany({ where: { instance: { testSetId } }, include: { instance: { select: { externalId: true } } } });
  }
}
