// When a leaderboard computation is stale work to drop (issue #11): the phase's stamp moved on
// while it ran, so a newer job (every change sends one) will compute boards that count.
import type { LeaderboardRepository } from '@podium/db';
import type { AnalysisStage } from './compute';
import { defaultView, viewKey } from './view';

/** The board `leaderboard(phaseId)` reads without arguments: the task's first metric, primary entries. */
export const DEFAULT_VIEW_KEY = viewKey(defaultView('', 'primary'));

/**
 * Progress guarantee: while submissions of the phase are still queued or being scored, a
 * computation of an outdated stamp is finished anyway once the phase's default board is older
 * than this (or, with none stored, once its first submission was scored longer ago than this),
 * so a long burst of submissions cannot starve the board: it lags by at most about this bound
 * plus one computation. With nothing left to score the bound is doubled (see isStaleWork).
 */
export const STALE_BOARD_BOUND_MS = 120_000;

/**
 * Whether a computation of `stamp` should be abandoned: the phase's stamp is another one now,
 * and the default board is younger than the progress bound. One query.
 *
 * The bound is `boundMs` while the phase still has submissions queued or being scored (more
 * changes are coming: finishing an outdated board is the only way to show progress), and
 * 2 × `boundMs` once nothing is left to score: then the newer stamp is the one that stays, and
 * computing it at once shows the final board sooner than finishing the outdated one first (at
 * the end of a burst of 100 submissions, the finished outdated board made the final one wait a
 * whole computation). The doubled bound still guarantees progress under a stream of
 * submissions that are each scored before the next arrives. Age: since the newest stored
 * default board, or, with none stored, since the phase's first submission was scored.
 */
export async function isStaleWork(boards: Pick<LeaderboardRepository, 'freshness'>, phaseId: string, stamp: string, boundMs = STALE_BOARD_BOUND_MS, now: () => number = Date.now): Promise<boolean> {
  return (await staleWork(boards, phaseId, stamp, boundMs, now)) !== 'current';
}

/** What {@link staleWork} says of a computation. */
export type StaleVerdict = 'current' | 'finish-view' | 'drop';

/**
 * What to do with a computation of `stamp` while it runs:
 * - `current`: keep going (its stamp is the phase's, or the progress guarantee holds);
 * - `finish-view`: stale, while submissions of the phase are still queued or being scored;
 * - `drop`: stale, and nothing is left to score (the newer stamp is the final one).
 * On `finish-view` the worker finishes an analysis in progress that keeps a memo (ADR 0027: its
 * work is the next computation's; terminated mid-analysis, no computation of a burst ever left
 * one, and the board after the last score was computed from scratch: 46 s of 53 at
 * 100 × 10,000) and terminates one that keeps none; on `drop` it terminates either, and a fill of
 * the memos too (the final computation adds what the kept memo lacks sooner than the outdated
 * work would end; the fill stored its memo every FILL_SYSTEMS_AT_ONCE systems, so what it filled
 * is kept), then computes the final stamp in the same job.
 * Between views the computation stops, except that a default-views computation overtaken during
 * a burst (`finish-view`) does one more view (PhaseBoardsOptions.staleness). Same query and rule
 * as {@link isStaleWork}.
 */
export async function staleWork(
  boards: Pick<LeaderboardRepository, 'freshness'>,
  phaseId: string,
  stamp: string,
  boundMs = STALE_BOARD_BOUND_MS,
  now: () => number = Date.now,
): Promise<StaleVerdict> {
  const f = await boards.freshness(phaseId, DEFAULT_VIEW_KEY);
  if (f.stamp === stamp) return 'current';
  const since = f.newest ?? f.firstScored;
  const age = since === null ? Infinity : now() - since.getTime();
  const bound = f.scoring > 0 ? boundMs : 2 * boundMs;
  if (age >= bound) return 'current';
  return f.scoring > 0 ? 'finish-view' : 'drop';
}

/**
 * Whether a running computation of the phase's boards is terminated on `verdict` (the worker
 * polls staleWork while its threads compute). `stages[i]`: what thread i last said it runs
 * (AnalysisStage: 'fill', 'memo', 'plain'), undefined before it said anything; `ended[i]`: thread
 * i is done. On 'drop' everything stops. On 'finish-view' (a burst) it stops only once every
 * thread has begun (said a stage, or ended), none is filling a memo and one runs an analysis that
 * keeps nothing a fill did not ('plain'). A thread that has not begun is still starting up or
 * reading; it is about to fill its memos, so the computation goes on (issue #28: terminated there,
 * bench:platform's chrF memo, filled by the second thread, stayed empty through a whole burst:
 * the first thread, its memos current, began its analysis before the second had said anything,
 * and the final chrF board was computed from scratch, 94 s).
 */
export function abortsComputation(verdict: StaleVerdict, stages: readonly (AnalysisStage | undefined)[], ended: readonly boolean[], threads: number): boolean {
  if (verdict === 'drop') return true;
  if (verdict !== 'finish-view') return false;
  const running = Array.from({ length: threads }, (_, i) => (ended[i] === true ? null : stages[i]));
  const begun = running.every((s) => s !== undefined);
  const filling = running.includes('fill');
  const analysing = running.includes('plain');
  return begun && !filling && analysing;
}
