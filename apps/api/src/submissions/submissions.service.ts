import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { sendScoreJob, type ScoreSubmissionJob } from '@podium/contracts';
import PgBoss from 'pg-boss';
import {
  IdentityRepository,
  ScoreRepository,
  SubmissionRepository,
  TaskRepository,
  type Submission,
  type Team,
  type TxSql,
} from '@podium/db';
import { ForbiddenError, InvalidInputError, NotFoundError, phaseLifecycleState, phaseRefusal, UnauthenticatedError, type AuthUser } from '@podium/domain';
import { z } from 'zod';
import { assertId } from '../common/ids';
import { displayNameSchema } from '../common/display-name';
import { parseInput } from '../common/parse-input';
import { assertActsForTeam, assertCanSeeSubmission, assertTaskOrganiser, can, canSeePhaseScores, canSeeReferences, canSeeSubmission, isAdmin, organisesTask, visibleTeams } from '../common/visibility';
import { corpusScoresOnPart, isCombinedKey, parseStoredSplit, scoringPart, taskMetrics, type ScoringPartName } from '@podium/leaderboard';
import { PhaseMetricsService } from '../leaderboard/phase-metrics.service';
import { LifecycleService } from '../lifecycle/lifecycle.service';
import { UploadRejection, UploadStream, type UploadFormat } from './upload-parser';
import { assertIntegerArg } from '../common/integer-args';

export interface SubmitRequest {
  phaseId: string;
  /** Team id, or `teamName` (REST forms may name the team). */
  teamId?: string;
  teamName?: string;
  systemName: string;
  description?: string;
  content: Uint8Array | string;
  format?: UploadFormat;
  isBaseline?: boolean;
}

const submitSchema = z.object({
  systemName: displayNameSchema({ field: 'systemName', min: 1 }),
  description: z.string().max(5000, 'description may have at most 5000 characters').default(''),
});

export type SubmissionWithTeam = Submission & { team: Team };
export type SubmissionWithPhase = NonNullable<Awaited<ReturnType<SubmissionRepository['byId']>>>;

/** A link a team gives: empty (removes it), or an http(s) URL of at most 500 characters. */
export function linkSchema(what: string) {
  return z
    .string()
    .max(500, `The ${what} link may have at most 500 characters`)
    .refine((v) => {
      if (v.trim() === '') return true;
      try {
        const u = new URL(v.trim());
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, `The ${what} link must be a web address starting with http:// or https://`);
}

const metadataSchema = z.object({
  description: z.string().max(5000, 'The description may have at most 5000 characters').optional(),
  paperUrl: linkSchema('paper').optional(),
  codeUrl: linkSchema('code').optional(),
});

/** A phase as uploads check it: with its task and test set. */
export type UploadPhase = NonNullable<Awaited<ReturnType<TaskRepository['phaseById']>>>;

@Injectable()
export class SubmissionsService {
  /** Instance ids of recent test sets, in position order: a test set never changes once stored, and a list of N submissions of a split phase asks N times. */
  private readonly testSetIds = new LRUCache<string, string[]>({ max: 8 });
  /** The same, with database ids, for uploads (a 100-system phase uploads 100 times against one test set). */
  private readonly testSetInstanceIds = new LRUCache<string, { externalIds: string[]; dbIds: string[] }>({ max: 4 });

  constructor(
    private readonly tasks: TaskRepository,
    private readonly submissions: SubmissionRepository,
    private readonly scores: ScoreRepository,
    private readonly identity: IdentityRepository,
    private readonly boss: PgBoss,
    private readonly metrics: PhaseMetricsService,
    private readonly lifecycle: LifecycleService,
  ) {}

  /** Queues scoring inside the caller's transaction, through the one queue contract. */
  private enqueuer(reason: ScoreSubmissionJob['reason']): (sql: TxSql, submissionId: string) => Promise<void> {
    return (sql, submissionId) => sendScoreJob(this.boss, submissionId, reason, sql);
  }

  private async phase(phaseId: string): Promise<UploadPhase> {
    assertId('phase', phaseId);
    const phase = await this.tasks.phaseById(phaseId);
    if (!phase) throw new NotFoundError('phase', phaseId);
    return phase;
  }

  private async team(req: { teamId?: string; teamName?: string }): Promise<Team> {
    if (req.teamId) {
      assertId('team', req.teamId);
      const team = await this.identity.teamById(req.teamId);
      if (!team) throw new NotFoundError('team', req.teamId);
      return team;
    }
    if (req.teamName) {
      const team = await this.identity.teamByName(req.teamName);
      if (!team) throw new NotFoundError('team', req.teamName);
      return team;
    }
    throw new InvalidInputError('teamId (or team name) is required', { field: 'teamId' });
  }

  /**
   * What an upload to a phase must pass before its body is read: the phase exists, has a test
   * set and takes submissions now (the task's organisers: always). The same checks run again in `submit`.
   */
  async assertPhaseTakesUploads(user: AuthUser, phaseId: string, now: Date = new Date()): Promise<UploadPhase> {
    const phase = await this.phase(phaseId);
    // The phase state machine (ADR 0013); whether an organiser's upload is a baseline is known only
    // from its fields, so organisers pass here whenever baselines are still taken.
    const refused = phaseRefusal(phase, organisesTask(user, phase.taskId) ? 'organiserSubmit' : 'submit', now);
    if (refused) throw new ForbiddenError(refused);
    if (!phase.testSetId) throw new InvalidInputError(`phase '${phase.name}' has no test set yet`, { field: 'phaseId' });
    return phase;
  }

  /**
   * Validates the upload completely, then stores it and queues its scoring job atomically (with
   * the team's registration for the task when registration is open and it had none).
   * Nothing is stored when anything is wrong. The content is one chunk of {@link submitStream}.
   */
  async submit(user: AuthUser | null, req: SubmitRequest): Promise<Submission> {
    const { content, ...rest } = req;
    return this.submitStream(user, rest, oneChunk(content));
  }

  /**
   * Checks who uploads what where (before one byte of the file is read), then parses, validates
   * and stores the file as it streams from `file` (docs/adr/0028-streamed-uploads.md): outputs are
   * COPYed into the transaction as their lines pass; a bad line, a refusal or a source that fails
   * (a client gone mid-stream) stores nothing. Refusals name the line and instance as before.
   * `read`: the phase as {@link assertPhaseTakesUploads} read it for this request (not read again;
   * the store checks the phase again under its locks).
   */
  async submitStream(user: AuthUser | null, req: Omit<SubmitRequest, 'content'>, file: AsyncIterable<Uint8Array | string>, read?: UploadPhase): Promise<Submission> {
    if (!user) throw new UnauthenticatedError();
    const fields = parseInput(submitSchema, { systemName: req.systemName, description: req.description ?? undefined });
    const phase = read?.id === req.phaseId ? read : await this.phase(req.phaseId);
    const team = await this.team(req);
    assertActsForTeam(team.id, user, phase.taskId);
    const organiser = organisesTask(user, phase.taskId);
    if (req.isBaseline && !organiser) throw new ForbiddenError("only the task's organisers may submit baselines");
    // Refused before the upload is parsed; the store re-checks in its transaction (ADR 0013).
    // Organisers may submit before the phase opens and add baselines after it closed, but a closed
    // phase takes no team's submission, not even through an organiser.
    const organiserMay = organiser && (req.isBaseline === true || phaseLifecycleState(phase) !== 'CLOSED');
    const refused = phaseRefusal(phase, organiserMay ? 'organiserSubmit' : 'submit');
    if (refused) throw new ForbiddenError(refused);
    const { registerOnAccept } = await this.lifecycle.assertMaySubmit(user, phase.task, team.id);
    if (!phase.testSetId) throw new InvalidInputError(`phase '${phase.name}' has no test set yet`, { field: 'phaseId' });
    const instances = await this.testSetInstances(phase.testSetId);
    const format = req.format;
    return this.submissions.createStreamed(
      {
        phaseId: phase.id,
        teamId: team.id,
        submittedById: user.id,
        systemName: fields.systemName,
        description: fields.description,
        isBaseline: req.isBaseline ?? false,
        instanceIds: instances.dbIds,
        bypassLimits: organiser,
        ...(registerOnAccept ? { registerForTaskId: phase.task.id } : {}),
      },
      async (out) => {
        // Checksummed as it streams, of the outputs, not the file: identical outputs in another
        // format are flagged too (outputsChecksum's definition).
        const parser = new UploadStream(instances.externalIds, format, (position, text) => out.row(position, text));
        try {
          for await (const chunk of file) {
            if (typeof chunk === 'string') parser.pushText(chunk);
            else parser.pushBytes(chunk);
            await out.flush();
          }
          return parser.end();
        } catch (e) {
          if (e instanceof UploadRejection) throw new InvalidInputError(e.message, { line: e.pointer.line, instanceId: e.pointer.instanceId });
          throw e;
        }
      },
      this.enqueuer('submitted'),
    );
  }

  /** A test set's instances by position: external ids (what files name) and database ids (what is stored); cached, a stored test set never changes. */
  private async testSetInstances(testSetId: string): Promise<{ externalIds: string[]; dbIds: string[] }> {
    let cached = this.testSetInstanceIds.get(testSetId);
    if (!cached) {
      const rows = await this.tasks.instanceIdsOf(testSetId);
      cached = { externalIds: rows.map((i) => i.externalId), dbIds: rows.map((i) => i.id) };
      this.testSetInstanceIds.set(testSetId, cached);
    }
    return cached;
  }

  /**
   * A member (or an organiser of its task) edits the submission's description and links: in any
   * phase state, since they describe the system and change no score. An empty link removes it.
   */
  async updateMetadata(user: AuthUser | null, id: string, input: { description?: string | null; paperUrl?: string | null; codeUrl?: string | null }) {
    const submission = await this.byId(id, user);
    assertActsForTeam(submission.teamId, user, submission.phase.taskId);
    const p = parseInput(metadataSchema, Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === 'string')), undefined, true);
    const link = (v: string | undefined) => (v === undefined ? {} : { value: v.trim() === '' ? null : v.trim() });
    const paper = link(p.paperUrl);
    const code = link(p.codeUrl);
    return this.submissions.updateMetadata(submission.id, {
      ...(p.description !== undefined ? { description: p.description } : {}),
      ...('value' in paper ? { paperUrl: paper.value } : {}),
      ...('value' in code ? { codeUrl: code.value } : {}),
    });
  }

  async byId(id: string, user: AuthUser | null): Promise<SubmissionWithPhase> {
    assertId('submission', id);
    const submission = await this.submissions.byId(id);
    if (!submission) throw new NotFoundError('submission', id);
    assertCanSeeSubmission(submission, submission.phase, user);
    return submission;
  }

  async list(phaseId: string, teamId: string | undefined, user: AuthUser | null): Promise<SubmissionWithTeam[]> {
    const phase = await this.phase(phaseId);
    if (teamId) assertId('team', teamId);
    const allowed = visibleTeams(phase, user);
    const visible = (rows: SubmissionWithTeam[]) => rows.filter((s) => canSeeSubmission(s, phase, user));
    if (allowed === 'all') return visible(await this.submissions.ofPhase(phaseId, teamId ? { teamId } : {}));
    if (teamId) {
      if (!allowed.includes(teamId)) {
        throw new ForbiddenError(`phase '${phase.name}' keeps other teams' submissions hidden until the organisers publish the results`);
      }
      return visible(await this.submissions.ofPhase(phaseId, { teamId }));
    }
    if (!user) throw new ForbiddenError(`phase '${phase.name}' keeps submissions hidden until the organisers publish the results; sign in to see your team's`);
    return visible(await this.submissions.ofPhase(phaseId));
  }

  async quota(phaseId: string, teamId: string, user: AuthUser | null) {
    assertId('team', teamId);
    const phase = await this.phase(phaseId);
    assertActsForTeam(teamId, user, phase.taskId);
    const q = await this.submissions.quota(phaseId, teamId, new Date(), undefined, user?.id);
    return { ...q, remaining: Math.max(0, Math.min(q.dailyLimit - q.usedToday, q.totalLimit - q.usedTotal)), nextSlotAt: q.usedTotal >= q.totalLimit ? null : q.nextSlotAt };
  }

  async corpusScores(submissionId: string) {
    return this.scores.corpusScores(submissionId);
  }

  /**
   * The positions a caller sees per-instance scores of (null: all): before publishing, a split
   * phase shows non-organisers its public part only (ADR 0014).
   */
  async visiblePositions(phase: { taskId: string; publishedAt: Date | null; split: unknown; testSetId: string | null }, user: AuthUser | null): Promise<number[] | null> {
    if (organisesTask(user, phase.taskId) || phase.publishedAt || !phase.testSetId || !parseStoredSplit(phase.split)) return null;
    return scoringPart(phase, await this.externalIds(phase.testSetId)).positions;
  }

  private async externalIds(testSetId: string): Promise<string[]> {
    let ids = this.testSetIds.get(testSetId);
    if (!ids) this.testSetIds.set(testSetId, (ids = (await this.tasks.instanceIdsOf(testSetId)).map((i) => i.externalId)));
    return ids;
  }

  /**
   * Corpus scores on the part the phase ranks now (a split phase: the public part before
   * publishing, the private part or all after; otherwise the stored whole-set values).
   */
  async corpusScoresOnPart(
    submission: { id: string; phaseId: string },
    stored: readonly { metric: string; value: number; signature: string }[],
  ): Promise<{ part: ScoringPartName; scores: { metric: string; value: number; signature: string }[] }> {
    const phase = await this.tasks.phaseById(submission.phaseId);
    if (!phase?.testSetId || !parseStoredSplit(phase.split) || stored.length === 0) return { part: 'all', scores: [...stored] };
    const part = scoringPart(phase, await this.externalIds(phase.testSetId));
    if (!part.positions) return { part: part.part, scores: [...stored] };
    return { part: part.part, scores: await corpusScoresOnPart(this.scores, taskMetrics(phase.task), phase.testSetId, submission.id, stored, part.positions) };
  }

  async instanceScores(
    submissionId: string,
    metric: string,
    page: { offset: number; limit: number; order: 'position' | 'asc' | 'desc' },
    user: AuthUser | null,
  ) {
    const submission = await this.byId(submissionId, user);
    assertIntegerArg('offset', page.offset, 0);
    assertIntegerArg('limit', page.limit, 1, 1000);
    // Per-instance scores come from the references: an oracle of them before publishing (ADR 0014).
    const scoresShown = can('perInstanceScores', submission.phase, user, submission.teamId);
    if (!scoresShown && page.order !== 'position') {
      throw new ForbiddenError(`phase '${submission.phase.name}' shows teams corpus scores only until the organisers publish the results, so instances cannot be ordered by score`);
    }
    if (isCombinedKey(metric)) return this.combinedInstanceScores(submission, metric, page, user);
    const references = canSeeReferences(submission.phase, user);
    const positions = scoresShown ? await this.visiblePositions(submission.phase, user) : null;
    if (positions) return this.instanceScoresOnPart(submission, metric, page, positions, references);
    const result = await this.scores.instanceScores(submissionId, metric, page);
    return {
      total: result.total,
      offset: page.offset,
      limit: page.limit,
      rows: result.rows.map((r) => ({
        instanceId: r.instance.externalId,
        position: r.instance.position,
        source: r.instance.source,
        references: references ? r.instance.references : null,
        output: r.output,
        score: scoresShown ? r.value : null,
        signature: r.signature,
      })),
    };
  }

  /** A page of per-instance scores restricted to a part of the test set (the public part of a split phase). */
  private async instanceScoresOnPart(
    submission: SubmissionWithPhase,
    metric: string,
    page: { offset: number; limit: number; order: 'position' | 'asc' | 'desc' },
    positions: number[],
    references: boolean,
  ) {
    const testSetId = submission.phase.testSetId;
    const values = await this.scores.column(submission.id, metric);
    const empty = { total: 0, offset: page.offset, limit: page.limit, rows: [] };
    if (!testSetId || values.length === 0) return empty;
    const cells = positions.flatMap((position) => {
      const v = values[position];
      return v !== undefined && !Number.isNaN(v) ? [{ position, v }] : [];
    });
    const signature = (await this.scores.columnSignature(submission.id, metric)) ?? '';
    return this.pageOfCells(submission.id, testSetId, cells, page, references, signature);
  }

  /** One page of (position, score) cells in the asked order, with each instance's details. */
  private async pageOfCells(
    submissionId: string,
    testSetId: string,
    cells: { position: number; v: number }[],
    page: { offset: number; limit: number; order: 'position' | 'asc' | 'desc' },
    references: boolean,
    signature: string,
  ) {
    if (page.order !== 'position') cells.sort((a, b) => (page.order === 'asc' ? a.v - b.v : b.v - a.v) || a.position - b.position);
    const slice = cells.slice(page.offset, page.offset + page.limit);
    const details = new Map((await this.scores.instanceDetails(submissionId, testSetId, slice.map((c) => c.position))).map((d) => [d.position, d]));
    return {
      total: cells.length,
      offset: page.offset,
      limit: page.limit,
      rows: slice.map((c) => {
        const d = details.get(c.position);
        if (!d) throw new NotFoundError('instance at position', String(c.position));
        return { ...d, references: references ? d.references : null, score: c.v, signature };
      }),
    };
  }

  /**
   * A page of the combined metric, computed from the phase's stored scores. Its scaling uses
   * every submission of the phase, so it is shown only where the phase's scores are visible.
   */
  private async combinedInstanceScores(
    submission: SubmissionWithTeam,
    metric: string,
    page: { offset: number; limit: number; order: 'position' | 'asc' | 'desc' },
    user: AuthUser | null,
  ) {
    const phase = await this.phase(submission.phaseId);
    if (!canSeePhaseScores(phase, user)) {
      throw new ForbiddenError(
        `the combined metric is scaled over all submissions of phase '${phase.name}', so it is shown once the phase's scores are public`,
      );
    }
    const { stored } = await this.metrics.available(phase);
    const selection = this.metrics.select(phase, metric, stored);
    const empty = { total: 0, offset: page.offset, limit: page.limit, rows: [] };
    if (!phase.testSetId || submission.status !== 'SCORED' || selection.kind !== 'derived') return empty;
    const part = await this.visiblePositions(phase, user);
    const only = { submissionIds: new Set([submission.id]), positions: part ? new Set(part) : null };
    const cells: { position: number; v: number }[] = [];
    let signature = '';
    for await (const rows of this.metrics.derivedRows({ ...phase, testSetId: phase.testSetId }, selection, await this.metrics.scoringStamp(phase.id), only)) {
      for (const r of rows) cells.push({ position: r.position, v: r.score });
      signature = rows[0]?.signature ?? signature;
    }
    return this.pageOfCells(submission.id, phase.testSetId, cells, page, canSeeReferences(phase, user), signature);
  }

  /**
   * Organisers of its task: queues one submission again (any state but a live scoring run), or
   * every stuck one of the caller's tasks (administrators: of all tasks; SCORING without a live
   * lease: its worker stopped and no reaper ran). Returns the ids.
   */
  async requeue(user: AuthUser | null, target: { submissionId?: string; stuck?: boolean }): Promise<string[]> {
    if (!user) throw new UnauthenticatedError();
    if (!!target.submissionId === !!target.stuck) throw new InvalidInputError('give exactly one of submissionId and stuck', { field: 'submissionId' });
    let ids: string[];
    if (target.submissionId) {
      assertId('submission', target.submissionId);
      const submission = await this.submissions.byId(target.submissionId);
      if (!submission) throw new NotFoundError('submission', target.submissionId);
      assertTaskOrganiser(user, submission.phase.taskId);
      ids = [target.submissionId];
    } else ids = await this.submissions.stuck(isAdmin(user) ? 'all' : user.organisedTaskIds);
    if (ids.length === 0) return [];
    await this.submissions.requeue(ids, this.enqueuer('requeue'), 'requeued');
    return ids;
  }
}

/** A whole upload (a GraphQL variable, a test's buffer) as a stream of one chunk. */
async function* oneChunk(content: Uint8Array | string): AsyncGenerator<Uint8Array | string> {
  yield content;
}
