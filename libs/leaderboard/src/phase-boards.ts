// Computes the leaderboards of one phase (its default views, or views asked for) for the phase's
// current scoring stamp. Called inside a worker thread (compute.thread.ts).
import { LeaderboardRepository, ScoreRepository, SubmissionRepository, TaskRepository, type Db } from '@podium/db';
import { InvalidInputError } from '@podium/domain';
import { computeLeaderboard, fillViewMemo, LeaderboardInputs, type AnalysisStage } from './compute';
import { asServed, encodeLeaderboard, type LeaderboardDocument } from './document';
import { leaderboardEntries, type LeaderboardEntries } from './leaderboard-entries';
import type { ComputedLeaderboard } from './leaderboard.types';
import { PhaseMetrics } from './phase-metrics';
import { defaultView, effectiveSettings, viewKey, type LeaderboardView } from './view';
import type { StaleVerdict } from './staleness';
import type { MemoUse } from '@podium/ranking';
import type { Pool } from 'pg';
import type { ColumnReads, ScoreColumnCache } from '@podium/db';

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
   * Asked before each computation after the first (between views), see staleWork: 'current' goes
   * on; 'drop' stops there (the boards emitted so far stay); 'finish-view' (stale while
   * submissions are still being scored) stops too, except that a computation of the default views
   * first goes on to one more view, the one whose stored board is the oldest: during a burst of
   * scores every view's memo then stays recent, not only the default one's, and every view after
   * the last score is one system's work (issue #28). Also asked between fills
   * (`fillMemos`): on 'drop' the fills stop there.
   */
  staleness?: (stamp: string) => Promise<StaleVerdict>;
  /** Smallest systems × instances that keeps an analysis memo (default MEMO_MIN_CELLS; tests use 0). */
  memoMinCells?: number;
  /** Boards of more systems keep their pairs apart, in tiles (encodeLeaderboard); default: never. */
  pairsApartAbove?: number;
  /**
   * This computation's share when several threads compute the phase's views together (the
   * worker's PODIUM_LEADERBOARD_THREADS): the distinct analyses, numbered in the order of `views`
   * (or of the default views, the default board being number 0), whose number is `index` modulo
   * `of`, and every view they serve. Default: all of them.
   */
  share?: { index: number; of: number };
  /** Told each memo fill as it ends (also in the summary's `fills`); a board thread posts them so, since a terminated thread sends no summary. */
  onFill?: (fill: { memoKey: string; use: MemoUse }) => void;
  /** Told what each analysis or fill is before it runs (see AnalysisStage). */
  onAnalysis?: (stage: AnalysisStage) => void;
  /**
   * While submissions of the phase are still being scored, fill the memo of every analysis (of
   * this share) before any board is computed (fillViewMemo, issue #28): what each would keep for
   * the systems and pairs its memo lacks. During a burst the boards lag behind the scores; the
   * memos then do not, and the board after the last score is one system's work. With nothing
   * being scored the analyses add what their memos lack themselves (a fill first would only
   * delay the default board). Default false.
   */
  fillMemos?: boolean;
  /**
   * Lowers the computation's priority (the worker's board threads, BOARD_THREAD_NICENESS). Called
   * once: at once when none of the phase's submissions is being scored; otherwise after the memos
   * are filled, so that the fill keeps pace with the scoring workers at their priority while the
   * boards yield to them.
   */
  yieldCpu?: () => void;
  /**
   * A pg pool for the bulk reads (every system's score column of a metric, the instance ids, the
   * memos): binary COPY, the repositories' `pool` (a leaderboard thread's). Without one they go
   * through Prisma: ≈ 3 s an analysis at 100 × 100,000, against ≈ 0.5 s.
   */
  bulkReads?: Pool;
  /** With `bulkReads`: score columns kept from earlier reads, read again only when rewritten (ScoreColumnCache). */
  columns?: ScoreColumnCache;
}

export interface PhaseBoardsSummary {
  stamp: string;
  views: number;
  computed: number;
  /** Stopped between views because `staleness` said so. */
  abandoned: boolean;
  /** What each computed view's analysis memo saved (ADR 0027). */
  memoUses?: { memoKey: string; use: MemoUse }[];
  /** What each fill computed (PhaseBoardsOptions.fillMemos). */
  fills?: { memoKey: string; use: MemoUse }[];
  /** With `columns`: the score columns taken from it and read from the database. */
  columnReads?: ColumnReads;
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
  const scores = new ScoreRepository(db, options.bulkReads ?? null, options.columns ?? null);
  const columnReads = () => (options.columns ? { columnReads: { ...scores.columnReads } } : {});
  const submissions = new SubmissionRepository(db);
  const boards = new LeaderboardRepository(db, options.bulkReads ?? null);
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
  if (options.onAnalysis) inputs.onAnalysis = options.onAnalysis;
  inputs.pendingSystems = await boards.scoringCount(phaseId);
  const filling = options.fillMemos === true && inputs.pendingSystems > 0;
  if (!filling) options.yieldCpu?.();
  // The default views: the default board first, then the others from the oldest stored board.
  const wanted = views ?? oldestFirst(defaultViews(available.all), await boards.newestByView(phaseId));
  const scored = await inputs.scoredSubmissions(phaseId);
  /** The analysis a view needs (views with the same key are one analysis); null: its metric no longer resolves. */
  const analysisOf = (view: LeaderboardView) => {
    let selection;
    try {
      selection = metrics.select(phase, view.metric || undefined, available.stored);
    } catch (e) {
      if (e instanceof InvalidInputError) return null;
      throw e;
    }
    const entering = [...leaderboardEntries(scored, view.entries)].sort();
    return { selection, same: JSON.stringify([selection.key, selection.kind === 'derived' ? selection.combined.w : null, view.test, view.correction, effectiveSettings(view, phase), entering]) };
  };
  // With a share: the analyses numbered in the given (or default) order, not the oldest-first one,
  // so every thread numbers them alike whatever was stored meanwhile.
  const share = options.share && options.share.of > 1 ? options.share : null;
  const number = new Map<string, number>();
  if (share) for (const view of views ?? defaultViews(available.all)) {
    const a = analysisOf(view);
    if (a && !number.has(a.same)) number.set(a.same, number.size);
  }
  /** Whether an analysis is this thread's (all without a share). */
  const ours = (same: string): boolean => !share || (number.get(same) ?? 0) % share.of === share.index;
  // The memos first, one fill per analysis of this share (a view stored for the stamp has its board).
  const fills: { memoKey: string; use: MemoUse }[] = [];
  if (filling) {
    const filled = new Set<string>();
    let ran = 0;
    for (const view of wanted) {
      const analysis = analysisOf(view);
      if (!analysis || filled.has(analysis.same)) continue;
      filled.add(analysis.same);
      if (!ours(analysis.same)) continue;
      if (await boards.has(phaseId, [viewKey(view)], stamp)) continue;
      // Overtaken by the last score ('drop'): the final computation adds what the other memos lack
      // itself, its default board first, instead of waiting for this one's fills (issue #28).
      if (ran++ > 0 && options.staleness && (await options.staleness(stamp)) === 'drop') {
        return { stamp, views: wanted.length, computed: 0, abandoned: true, memoUses: inputs.memoUses, fills, ...columnReads() };
      }
      const use = await fillViewMemo(inputs, phase, analysis.selection, view);
      if (use) {
        const fill = { memoKey: viewKey(view), use };
        fills.push(fill);
        options.onFill?.(fill);
      }
    }
    inputs.memosFilled = true;
    options.yieldCpu?.();
  }
  // Views of one analysis share its board, and so its encoded bytes: serialised and compressed once
  // (gzip and brotli of a 3.7 MB board took 1.3 s a view at 100 × 10,000).
  const done = new Map<string, { board: ComputedLeaderboard; ms: number; encoded?: { computedAt: Date; bytes: ReturnType<typeof encodeLeaderboard> } }>();
  let computed = 0;
  for (const view of wanted) {
    // Already stored for this stamp (a repeated job, or another worker's): the same bytes.
    if (await boards.has(phaseId, [viewKey(view)], stamp)) continue;
    const analysis = analysisOf(view);
    if (!analysis) continue;
    const { selection, same } = analysis;
    if (!ours(same)) continue;
    let hit = done.get(same);
    if (!hit) {
      if (computed > 0 && options.staleness && !goesOn(await options.staleness(stamp), views === null && (share?.index ?? 0) === 0, computed)) {
        return { stamp, views: wanted.length, computed, abandoned: true, memoUses: inputs.memoUses, fills, ...columnReads() };
      }
      const started = performance.now();
      const board = await computeLeaderboard(inputs, phase, selection, available.all, view);
      hit = { board, ms: Math.round(performance.now() - started) };
      done.set(same, hit);
      computed++;
    }
    if (!hit.encoded) {
      const computedAt = new Date();
      hit.encoded = { computedAt, bytes: encodeLeaderboard(asServed(hit.board, stamp, computedAt), { ...(options.pairsApartAbove === undefined ? {} : { pairsApartAbove: options.pairsApartAbove }) }) };
    }
    await emit({ viewKey: viewKey(view), stamp, computedAt: hit.encoded.computedAt, durationMs: hit.ms, ...hit.encoded.bytes });
  }
  return { stamp, views: wanted.length, computed, abandoned: false, memoUses: inputs.memoUses, fills, ...columnReads() };
}

/** `views` with the first kept first and the rest by when their newest board was computed, oldest (or none) first; stable. */
export function oldestFirst(views: readonly LeaderboardView[], newest: ReadonlyMap<string, Date>): LeaderboardView[] {
  const [first, ...rest] = views;
  if (!first) return [];
  const age = (v: LeaderboardView) => newest.get(viewKey(v))?.getTime() ?? -Infinity;
  return [first, ...rest.map((v, i) => ({ v, i, t: age(v) })).sort((a, b) => a.t - b.t || a.i - b.i).map((e) => e.v)];
}

/**
 * Whether a computation goes on to its next view after `computed` analyses, given the staleness
 * verdict (PhaseBoardsOptions.staleness): a stale computation of the default views during a burst
 * does one view after the default one.
 */
export function goesOn(verdict: StaleVerdict, defaultViews: boolean, computed: number): boolean {
  return verdict === 'current' || (verdict === 'finish-view' && defaultViews && computed === 1);
}
