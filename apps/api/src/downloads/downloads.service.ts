import { Injectable } from '@nestjs/common';
import { ScoreRepository, SubmissionRepository, TaskRepository, type LongScoreColumn, type LongScoreRow } from '@podium/db';
import { NotFoundError, type AuthUser } from '@podium/domain';
import { assertId } from '../common/ids';
import { PHASE_SCORE_COLUMNS, SCORE_COLUMNS, type PhaseScoreExportRow, type ScoreExportRow } from './csv-writer';
import { assertCan, assertCanSeeSubmission, canSeeSubmission } from '../common/visibility';
import { SubmissionsService } from '../submissions/submissions.service';
import { LeaderboardService, type LeaderboardOptions, type LeaderboardSnapshot } from '../leaderboard/leaderboard.service';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Leaderboard } from '../leaderboard/leaderboard.types';
import { PhaseMetricsService, type MetricSelection } from '../leaderboard/phase-metrics.service';

const COMBINED_PAGE = 5000;

/** Part of a score export: a stored column (with the positions the caller sees: 1; null: all), or rows computed from stored columns. */
export type ScoreExportPage = { column: LongScoreColumn; visible: Uint8Array | null } | { rows: LongScoreRow[] };

export interface ScoreExport {
  fileStem: string;
  pages: AsyncGenerator<ScoreExportPage>;
  /** The columns (CSV order) and each row's values: a phase's download adds its submission's id, primary, baseline and status. */
  columns: readonly string[];
  row: (r: LongScoreRow) => ScoreExportRow | PhaseScoreExportRow;
}

const longRow = (r: LongScoreRow): ScoreExportRow => ({ system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score });

/** The stored columns with the positions shown (null: all) as a mask: 1 at a shown position. */
async function* onPositions(columns: AsyncGenerator<LongScoreColumn>, positions: number[] | null): AsyncGenerator<ScoreExportPage> {
  let visible: Uint8Array | null = null;
  if (positions) {
    visible = new Uint8Array(positions.reduce((m, p) => Math.max(m, p + 1), 0));
    for (const p of positions) visible[p] = 1;
  }
  for await (const column of columns) yield { column, visible };
}

/** Decides what a download contains and who may fetch it; the controller only streams. */
@Injectable()
export class DownloadsService {
  private readonly csvs = new WeakMap<LeaderboardSnapshot, { etag: string; identity: Buffer; gzip: Buffer; brotli: Buffer }>();
  constructor(
    private readonly tasks: TaskRepository,
    private readonly submissions: SubmissionRepository,
    private readonly scores: ScoreRepository,
    private readonly metrics: PhaseMetricsService,
    private readonly leaderboards: LeaderboardService,
    /** Which positions a caller sees (the public part of a split phase): one rule for pages and downloads. */
    private readonly submissionsService: SubmissionsService,
  ) {}

  async submissionScores(submissionId: string, user: AuthUser | null): Promise<ScoreExport> {
    assertId('submission', submissionId);
    const submission = await this.submissions.byId(submissionId);
    if (!submission) throw new NotFoundError('submission', submissionId);
    assertCanSeeSubmission(submission, submission.phase, user);
    // Per-instance scores: an oracle of the hidden references (ADR 0014).
    assertCan('perInstanceScores', submission.phase, user, submission.teamId);
    return {
      fileStem: `${submission.phase.task.slug}-${submission.phase.name}-${submission.team.name}-${submission.systemName}-scores`,
      pages: onPositions(this.scores.longColumns([submission.id]), await this.submissionsService.visiblePositions(submission.phase, user)),
      columns: SCORE_COLUMNS,
      row: longRow,
    };
  }

  /**
   * Every stored score of the phase's scored submissions; each combined key in `metrics` adds
   * that metric's rows, computed from the stored scores as the leaderboard computes them. A
   * disqualified submission's rows only with `includeDisqualified` (it is not ranked).
   */
  async phaseScores(phaseId: string, user: AuthUser | null, metrics: string[] = [], includeDisqualified = false): Promise<ScoreExport> {
    assertId('phase', phaseId);
    const phase = await this.tasks.phaseById(phaseId);
    if (!phase) throw new NotFoundError('phase', phaseId);
    assertCan('downloads', phase, user);
    const { stored } = await this.metrics.available(phase);
    const combined = new Map<string, MetricSelection & { kind: 'derived' }>();
    for (const key of metrics) {
      const selection = this.metrics.select(phase, key, stored);
      if (selection.kind === 'derived') combined.set(selection.key, selection);
    }
    // Submissions an organiser hid stay out for everyone but organisers.
    const scored = (await this.submissions.ofPhase(phaseId, { status: 'SCORED' })).filter(
      (s) => canSeeSubmission(s, phase, user) && (includeDisqualified || s.moderation !== 'DISQUALIFIED'),
    );
    const about = new Map(scored.map((s) => [s.id, { primary: s.isPrimary, baseline: s.isBaseline, status: s.moderation === 'NONE' ? ('scored' as const) : s.moderation === 'DISQUALIFIED' ? ('disqualified' as const) : ('hidden' as const) }]));
    const shown = new Set(scored.map((s) => s.id));
    const positions = await this.submissionsService.visiblePositions(phase, user);
    const storedPages = onPositions(this.scores.longColumns(scored.map((s) => s.id)), positions);
    const partOf = positions ? new Set(positions) : null;
    const testSetId = phase.testSetId;
    const stamp = combined.size > 0 ? await this.metrics.scoringStamp(phaseId) : '';
    const phaseMetrics = this.metrics;
    const pages = async function* (): AsyncGenerator<ScoreExportPage> {
      yield* storedPages;
      if (!testSetId) return;
      for (const selection of combined.values()) {
        let page: LongScoreRow[] = [];
        for await (const rows of phaseMetrics.derivedRows({ ...phase, testSetId }, selection, stamp, { submissionIds: shown, positions: partOf })) {
          page = page.concat(rows);
          if (page.length >= COMBINED_PAGE) {
            yield { rows: page };
            page = [];
          }
        }
        if (page.length > 0) yield { rows: page };
      }
    };
    return {
      fileStem: `${phase.task.slug}-${phase.name}-scores`,
      pages: pages(),
      columns: PHASE_SCORE_COLUMNS,
      row: (r) => {
        const a = about.get(r.submissionId);
        if (!a) throw new Error(`score row of submission ${r.submissionId}, which the export left out`);
        return { submission_id: r.submissionId, ...longRow(r), ...a };
      },
    };
  }

  /**
   * Every output of the phase in one JSONL stream (issue #22, as WMT and OCELoT publish them): a
   * manifest line first (each submission's id, team, system, description, primary, baseline and
   * status, its corpus scores with their signatures), then one line per output in test-set order.
   * Everyone once published; organisers only before (`bulkOutputs`). Hidden submissions stay out
   * for everyone but organisers; failed ones have no outputs to give.
   */
  async phaseOutputs(phaseId: string, user: AuthUser | null): Promise<{ fileStem: string; lines: AsyncGenerator<string> }> {
    assertId('phase', phaseId);
    const phase = await this.tasks.phaseById(phaseId);
    if (!phase) throw new NotFoundError('phase', phaseId);
    assertCan('bulkOutputs', phase, user);
    const subs = (await this.submissions.ofPhase(phaseId)).filter((s) => s.status !== 'FAILED' && canSeeSubmission(s, phase, user));
    const stored = await this.scores.corpusScoresOf(subs.map((s) => s.id));
    const metrics = (phase.task.metrics as unknown as { key: string }[] | null) ?? [];
    const submissions = [];
    for (const s of subs) {
      const mine = stored.filter((c) => c.submissionId === s.id).map((c) => ({ metric: c.metric, value: c.value, signature: c.signature }));
      const { part, scores } = await this.submissionsService.corpusScoresOnPart(s, mine);
      submissions.push({
        id: s.id,
        team: s.team.name,
        system: s.systemName,
        description: s.description,
        paperUrl: s.paperUrl,
        codeUrl: s.codeUrl,
        primary: s.isPrimary,
        baseline: s.isBaseline,
        status: s.status === 'SCORED' ? (s.moderation === 'NONE' ? 'scored' : s.moderation.toLowerCase()) : s.status.toLowerCase(),
        submittedAt: s.createdAt.toISOString(),
        scoredOn: part,
        scores,
      });
    }
    const manifest = {
      type: 'manifest',
      format: 'podium-outputs/1',
      task: { slug: phase.task.slug, title: phase.task.title, sourceLang: phase.task.sourceLang, targetLang: phase.task.targetLang },
      phase: { id: phase.id, name: phase.name, publishedAt: phase.publishedAt?.toISOString() ?? null },
      primaryMetric: metrics[0]?.key ?? null,
      testSet: phase.testSet ? { name: phase.testSet.name, instances: phase.testSet.instanceCount, checksum: phase.testSet.checksum } : null,
      lines: 'after this one, one {"type":"output","submissionId","instanceId","position","output"} per output, in submission then test-set order',
      submissions,
    };
    const repo = this.submissions;
    const count = phase.testSet?.instanceCount ?? 0;
    const lines = async function* (): AsyncGenerator<string> {
      yield JSON.stringify(manifest) + '\n';
      for (const s of subs) {
        for await (const rows of repo.outputRows(s.id, count)) {
          yield rows.map((r) => JSON.stringify({ type: 'output', submissionId: s.id, instanceId: r.instanceId, position: r.position, output: r.text }) + '\n').join('');
        }
      }
    };
    return { fileStem: `${phase.task.slug}-${phase.name}-outputs`, lines: lines() };
  }

  /** The stored leaderboard (same service and checks as GraphQL). */
  async leaderboardSnapshot(phaseId: string, options: LeaderboardOptions, user: AuthUser | null): Promise<LeaderboardSnapshot> {
    return this.leaderboards.snapshot(phaseId, options, user);
  }

  /** One tile of a board's pairs (LeaderboardService.pairTile: same checks as the board). */
  leaderboardPairTile(phaseId: string, options: LeaderboardOptions, row: number, col: number, user: AuthUser | null) {
    return this.leaderboards.pairTile(phaseId, options, row, col, user);
  }

  /** Every pair of a board, streamed (LeaderboardService.pairStream: same checks as the board). */
  leaderboardPairStream(phaseId: string, options: LeaderboardOptions, user: AuthUser | null) {
    return this.leaderboards.pairStream(phaseId, options, user);
  }

  /** The CSV of a stored board, rendered and compressed once per snapshot. */
  leaderboardCsv(snapshot: LeaderboardSnapshot, render: (board: Leaderboard) => string): { etag: string; identity: Buffer; gzip: Buffer; brotli: Buffer } {
    let hit = this.csvs.get(snapshot);
    if (!hit) {
      const identity = Buffer.from(render(snapshot.board()), 'utf8');
      hit = { etag: `"${snapshot.etag.slice(1, -1)}-csv"`, identity, gzip: gzipSync(identity), brotli: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) };
      this.csvs.set(snapshot, hit);
    }
    return hit;
  }
}
