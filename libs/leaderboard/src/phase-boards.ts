// Computes the leaderboards of one phase (its default views, or views asked for) for the phase's
// current scoring stamp. Called inside a worker thread (compute.thread.ts).
import { LeaderboardRepository, ScoreRepository, SubmissionRepository, TaskRepository, type Db } from '@podium/db';
import { InvalidInputError } from '@podium/domain';
import { computeLeaderboard, LeaderboardInputs } from './compute';
import { asServed, encodeLeaderboard, type LeaderboardDocument } from './document';
import { leaderboardEntries, type LeaderboardEntries } from './leaderboard-entries';
import type { ComputedLeaderboard } from './leaderboard.types';
import { PhaseMetrics } from './phase-metrics';
import { defaultView, effectiveSettings, viewKey, type LeaderboardView } from './view';
import type { MemoUse } from '@podium/ranking';

/** One computed board, ready to store. */
export interface ComputedBoard extends LeaderboardDocument {
  viewKey: string;
  stamp: string;
  computedAt: Date;
  durationMs: number;
}

/**
 * The default views of a phase: every metric it can be read under (stored keys, then combined
 * ones; '' = the task's first, as a request without `metric` asks), each for primary and all
 * entries, with the phase's test, correction, seed and resamples defaults. Primary views first.
 */
export function defaultViews(metrics: readonly string[]): LeaderboardView[] {
  const entries: LeaderboardEntries[] = ['primary', 'all'];
  return entries.flatMap((e) => ['', ...metrics].map((m) => defaultView(m, e)));
}

export interface PhaseBoardsOptions {
  /** Told the stamp once it is read, before anything is computed. */
  onStamp?: (stamp: string) => void;
  /**
   * Asked before each computation after the first (between views): true stops there, the boards
   * emitted so far stay (see isStaleWork).
   */
  abandon?: (stamp: string) => Promise<boolean>;
  /** Smallest systems × instances that keeps an analysis memo (default MEMO_MIN_CELLS; tests use 0). */
  memoMinCells?: number;
  /** Boards of more systems keep their pairs apart, in tiles (encodeLeaderboard); default: never. */
  pairsApartAbove?: number;
}

export interface PhaseBoardsSummary {
  stamp: string;
  views: number;
  computed: number;
  /** Stopped between views because `abandon` said so. */
  abandoned: boolean;
  /** What each computed view's analysis memo saved (ADR 0027). */
  memoUses?: { memoKey: string; use: MemoUse }[];
}

/**
 * Computes `views` (null: the phase's defaults) for the current stamp and hands each board to
 * `emit` as soon as it is done. Views whose metric no longer resolves are skipped. Views that
 * come out the same (primary = all when no team marked a primary; '' = the first metric) are
 * computed once; views already stored for the stamp are skipped. The default view ('' primary) comes first, so it is stored first.
 */
export async function computePhaseBoards(
  db: Db,
  phaseId: string,
  views: LeaderboardView[] | null,
  emit: (board: ComputedBoard) => Promise<void> | void,
  options: PhaseBoardsOptions = {},
): Promise<PhaseBoardsSummary> {
  const scores = new ScoreRepository(db);
  const submissions = new SubmissionRepository(db);
  const boards = new LeaderboardRepository(db);
  // The stamp before the phase: a change committed between the two reads then leaves this work
  // under an older stamp (recomputed for the new one), never a board of the old settings stored
  // under the new stamp (a publish in that window kept the public-part board as the final one).
  const stamp = await boards.stamp(phaseId);
  const phase = await new TaskRepository(db).phaseById(phaseId);
  if (!phase || !stamp) return { stamp: '', views: 0, computed: 0, abandoned: false };
  options.onStamp?.(stamp);
  const metrics = new PhaseMetrics(scores, boards);
  const available = await metrics.available(phase);
  const inputs = new LeaderboardInputs(metrics, submissions, scores, stamp, {
    load: (memoKey) => boards.memo(phaseId, memoKey),
    save: (memoKey, body) => boards.saveMemo(phaseId, memoKey, body),
  }, options.memoMinCells);
  const wanted = views ?? defaultViews(available.all);
  const scored = await inputs.scoredSubmissions(phaseId);
  const done = new Map<string, { board: ComputedLeaderboard; ms: number }>();
  let computed = 0;
  for (const view of wanted) {
    // Already stored for this stamp (a repeated job, or another worker's): the same bytes.
    if (await boards.has(phaseId, [viewKey(view)], stamp)) continue;
    let selection;
    try {
      selection = metrics.select(phase, view.metric || undefined, available.stored);
    } catch (e) {
      if (e instanceof InvalidInputError) continue;
      throw e;
    }
    const entering = [...leaderboardEntries(scored, view.entries)].sort();
    const same = JSON.stringify([selection.key, selection.kind === 'derived' ? selection.combined.w : null, view.test, view.correction, effectiveSettings(view, phase), entering]);
    let hit = done.get(same);
    if (!hit) {
      if (computed > 0 && options.abandon && (await options.abandon(stamp))) return { stamp, views: wanted.length, computed, abandoned: true, memoUses: inputs.memoUses };
      const started = performance.now();
      const board = await computeLeaderboard(inputs, phase, selection, available.all, view);
      hit = { board, ms: Math.round(performance.now() - started) };
      done.set(same, hit);
      computed++;
    }
    const computedAt = new Date();
    await emit({ viewKey: viewKey(view), stamp, computedAt, durationMs: hit.ms, ...encodeLeaderboard(asServed(hit.board, stamp, computedAt), { ...(options.pairsApartAbove === undefined ? {} : { pairsApartAbove: options.pairsApartAbove }) }) });
  }
  return { stamp, views: wanted.length, computed, abandoned: false, memoUses: inputs.memoUses };
}
