import { Injectable } from '@nestjs/common';
import { LifecycleRepository, Prisma, TaskRepository } from '@podium/db';
import { ConflictError, InvalidInputError, NotFoundError, type AuthUser } from '@podium/domain';
import { instanceSplitSchema, type InstanceSplit } from '@podium/leaderboard';
import { z } from 'zod';
import { assertId } from '../common/ids';
import { parseInput } from '../common/parse-input';
import { canonicalInstanceLine, commitInstances, COMMITMENT_SCHEME, newCommitmentSalt } from '@podium/contracts';
import { assertTaskOrganiser, can } from '../common/visibility';
import { LeaderboardJobs } from '../leaderboard/leaderboard-jobs';
import type { CreatePhaseInput, HumanScoreInput, PhaseSplitInput, TestInstanceInput, UpdatePhaseInput } from './phase.inputs';

/** Largest test set accepted through the API. */
export const MAX_TEST_SET_INSTANCES = 200_000;
const MAX_TEXT = 100_000;

// Messages in plain words: the web shows them as they are (the field stays in extensions.field).
const phaseName = z.string({ error: 'The phase needs a name' }).trim().min(1, 'The phase needs a name').max(100, 'The phase name may have at most 100 characters');
const date = (what: string) => z.date({ error: `The ${what} date must be a valid date` });
const dailyLimit = z
  .number({ error: 'The daily limit must be a whole number' })
  .int('The daily limit must be a whole number')
  .min(1, 'The daily limit must be at least 1')
  .max(10_000, 'The daily limit may be at most 10,000');
const totalLimit = z
  .number({ error: 'The total limit must be a whole number' })
  .int('The total limit must be a whole number')
  .min(1, 'The total limit must be at least 1')
  .max(100_000, 'The total limit may be at most 100,000');

const createPhaseSchema = z
  .object({
    taskSlug: z.string().min(1, 'Choose a task'),
    name: phaseName,
    opensAt: date('open'),
    closesAt: date('close'),
    dailyLimit,
    totalLimit,
    leaderboardBeforeClose: z.boolean(),
    teamInstanceScores: z.boolean().default(false),
  })
  .refine((p) => p.closesAt > p.opensAt, { message: 'The close date must be after the open date', path: ['closesAt'] });

const updatePhaseSchema = z.object({
  name: phaseName.optional(),
  opensAt: date('open').optional(),
  closesAt: date('close').optional(),
  dailyLimit: dailyLimit.optional(),
  totalLimit: totalLimit.optional(),
  leaderboardBeforeClose: z.boolean().optional(),
  teamInstanceScores: z.boolean().optional(),
});

/** A split as given (null fields left out), validated; unknown ids are refused once a test set is attached. */
function parseSplit(input: PhaseSplitInput): InstanceSplit {
  return parseInput(instanceSplitSchema, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)), 'split');
}

const instanceSchema = z.object({
  id: z.string().min(1, 'instance id must not be empty').max(200),
  source: z.string().max(MAX_TEXT),
  references: z.array(z.string().max(MAX_TEXT)).min(1, 'each instance needs at least one reference').max(32),
  context: z
    .record(z.string(), z.unknown())
    .nullish()
    .refine((c) => c == null || JSON.stringify(c).length <= MAX_TEXT, `context may have at most ${MAX_TEXT} characters as JSON`),
});

const testSetSchema = z
  .object({
    name: z.string().trim().min(1, 'name must not be empty').max(100),
    instances: z
      .array(instanceSchema)
      .min(1, 'a test set needs at least one instance')
      .max(MAX_TEST_SET_INSTANCES, `a test set may have at most ${MAX_TEST_SET_INSTANCES} instances`),
    humanScores: z.array(z.object({ instanceId: z.string(), systemName: z.string().min(1).max(200), score: z.number() })),
  })
  .superRefine((t, ctx) => {
    const seen = new Map<string, number>();
    for (const [k, inst] of t.instances.entries()) {
      const first = seen.get(inst.id);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['instances', k, 'id'], message: `duplicate instance id '${inst.id}' (instances ${first} and ${k})` });
        return;
      }
      seen.set(inst.id, k);
    }
    for (const [k, h] of t.humanScores.entries()) {
      if (!seen.has(h.instanceId)) {
        ctx.addIssue({ code: 'custom', path: ['humanScores', k, 'instanceId'], message: `human score for unknown instance '${h.instanceId}'` });
        return;
      }
    }
  });

@Injectable()
export class PhasesService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly lifecycle: LifecycleRepository,
    private readonly leaderboards: LeaderboardJobs,
  ) {}

  private audit(user: AuthUser, action: string, phase: { id: string; taskId: string; name: string }, details: Record<string, string | number | boolean | null> = {}) {
    return { actorId: user.id, action, targetType: 'phase', targetId: phase.id, details: { taskId: phase.taskId, phase: phase.name, ...details } };
  }

  /**
   * Dates and limits while the phase is scheduled or open (never closing or reopening it), the name
   * and the public flag until it is published; the state machine refuses the rest (ADR 0013).
   */
  async update(id: string, input: UpdatePhaseInput, caller: AuthUser | null) {
    const phase = await this.byId(id);
    const user = assertTaskOrganiser(caller, phase.taskId);
    const { split: splitInput, removeSplit, ...rest } = input;
    // GraphQL sends null for a field given as null: left out like an absent one.
    const p = parseInput(updatePhaseSchema, Object.fromEntries(Object.entries<unknown>(rest).filter(([, v]) => v !== null && v !== undefined)), undefined, true);
    let split: Prisma.InputJsonValue | typeof Prisma.DbNull | undefined;
    if (splitInput && removeSplit) throw new InvalidInputError('give split or removeSplit, not both', { field: 'removeSplit' });
    if (splitInput || removeSplit) {
      // The final ranking must not move under a published board.
      if (phase.publishedAt) throw new ConflictError(`phase '${phase.name}' is published; its split cannot change (published results are final)`);
      split = splitInput ? await this.checkedSplit(parseSplit(splitInput), phase.testSetId) : Prisma.DbNull;
    }
    const changes = { ...p, ...(split !== undefined ? { split } : {}) };
    const updated = await this.lifecycle.updatePhase(phase.id, changes, this.audit(user, 'phase.update', phase, { fields: Object.keys(changes).join(',') }));
    await this.leaderboards.refresh(phase.id, 'lifecycle');
    return updated;
  }

  /** What closing, publishing or re-scoring the phase would touch, counted now: its organisers only. */
  async impact(id: string, caller: AuthUser | null) {
    const phase = await this.byId(id);
    assertTaskOrganiser(caller, phase.taskId);
    return { phaseId: phase.id, ...(await this.lifecycle.phaseImpact(phase.id)), instances: phase.testSet?.instanceCount ?? 0 };
  }

  /** Closes an open phase now: no more submissions, primaries frozen; who and when are recorded. */
  async close(id: string, caller: AuthUser | null) {
    const phase = await this.byId(id);
    const user = assertTaskOrganiser(caller, phase.taskId);
    const closed = await this.lifecycle.closePhase(phase.id, new Date(), this.audit(user, 'phase.close', phase));
    await this.leaderboards.refresh(phase.id, 'lifecycle');
    return closed;
  }

  /** Publishing a closed phase makes references, every output and every score public; it is final. */
  async publish(id: string, caller: AuthUser | null) {
    const phase = await this.byId(id);
    const user = assertTaskOrganiser(caller, phase.taskId);
    const result = await this.lifecycle.publishPhase(phase.id, new Date(), this.audit(user, 'phase.publish', phase));
    await this.leaderboards.refresh(phase.id, 'lifecycle');
    return result;
  }

  /** With a test set attached, every public id must be one of its instances. */
  private async checkedSplit(split: InstanceSplit, testSetId: string | null): Promise<Prisma.InputJsonValue> {
    if (split.publicIds && testSetId) {
      const known = new Set((await this.tasks.instanceIdsOf(testSetId)).map((i) => i.externalId));
      const unknown = split.publicIds.find((i) => !known.has(i));
      if (unknown !== undefined) throw new InvalidInputError(`split.publicIds: '${unknown}' is not an instance of the phase's test set`, { field: 'split.publicIds', instanceId: unknown });
    }
    return split;
  }

  /** The commitment of the phase's test set; the salt only once the phase is published (visibility `commitmentSalt`: nobody before). */
  async commitmentOf(phase: { id: string; name: string; taskId: string; closesAt: Date; leaderboardBeforeClose: boolean; closedEarlyAt: Date | null; publishedAt: Date | null; testSetId: string | null }) {
    if (!phase.testSetId) return null;
    const c = await this.tasks.commitment(phase.testSetId);
    if (!c) return null;
    const salt = can('commitmentSalt', phase, null) ? await this.tasks.commitmentSalt(phase.testSetId) : null;
    return { commitment: c.commitment, salt, scheme: COMMITMENT_SCHEME, committedAt: c.createdAt, canonicalUrl: `/api/phases/${phase.id}/test-set.jsonl` };
  }

  /** The canonical JSONL the commitment hashes (ADR 0014), a chunk of lines at a time. */
  async *canonicalJsonl(testSetId: string): AsyncGenerator<string> {
    for await (const rows of this.tasks.committedContent(testSetId)) {
      yield rows.map((r) => canonicalInstanceLine({ id: r.externalId, source: r.source, references: r.references })).join('');
    }
  }

  async byId(id: string) {
    assertId('phase', id);
    const phase = await this.tasks.phaseById(id);
    if (!phase) throw new NotFoundError('phase', id);
    return phase;
  }

  async create(input: CreatePhaseInput, user: AuthUser | null) {
    // The split is parsed on its own below (zod drops the key here).
    const p = parseInput(createPhaseSchema, input, undefined, true);
    const task = await this.tasks.taskBySlug(p.taskSlug);
    if (!task) throw new NotFoundError('task', p.taskSlug);
    const organiser = assertTaskOrganiser(user, task.id);
    return this.tasks.createPhase({
      taskId: task.id,
      name: p.name,
      opensAt: p.opensAt,
      closesAt: p.closesAt,
      dailyLimit: p.dailyLimit,
      totalLimit: p.totalLimit,
      leaderboardBeforeClose: p.leaderboardBeforeClose,
      teamInstanceScores: p.teamInstanceScores,
      // No test set yet: ids are checked against it when it is attached.
      ...(input.split ? { split: await this.checkedSplit(parseSplit(input.split), null) } : {}),
    }, organiser.id);
  }

  async uploadTestSet(user: AuthUser | null, phaseId: string, name: string, instances: TestInstanceInput[], humanScores: HumanScoreInput[] = []) {
    const phase = await this.byId(phaseId);
    const organiser = assertTaskOrganiser(user, phase.taskId);
    const t = parseInput(testSetSchema, { name, instances, humanScores });
    // Committed when attached; the salt stays in its own table until the phase is published (ADR 0014).
    const salt = newCommitmentSalt();
    return this.tasks.uploadTestSet(
      phaseId,
      t.name,
      t.instances.map((i) => ({ externalId: i.id, source: i.source, references: i.references, context: i.context ?? null })),
      t.humanScores.map((h) => ({ externalId: h.instanceId, systemName: h.systemName, score: h.score })),
      { salt, commitment: commitInstances(salt, t.instances) },
      organiser.id,
    );
  }
}
