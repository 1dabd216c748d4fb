// When a leaderboard computation is stale work to drop (issue #11): the phase's stamp moved on
// while it ran, so a newer job (every change sends one) will compute boards that count.
import type { LeaderboardRepository } from '@podium/db';
import { defaultView, viewKey } from './view';

/** The board `leaderboard(phaseId)` reads without arguments: the task's first metric, primary entries. */
export const DEFAULT_VIEW_KEY = viewKey(defaultView('', 'primary'));

/**
 * Progress guarantee: a computation of an outdated stamp is still finished when the phase's
 * newest stored default board (any stamp) is older than this, or when none is stored, so a
 * long stream of submissions cannot starve the board: it lags by at most about this bound plus
 * one computation.
 */
export const STALE_BOARD_BOUND_MS = 120_000;

/**
 * Whether a computation of `stamp` should be abandoned: the phase's stamp is another one now,
 * and the phase's default board was stored less than `boundMs` ago. One query.
 */
export async function isStaleWork(boards: Pick<LeaderboardRepository, 'freshness'>, phaseId: string, stamp: string, boundMs = STALE_BOARD_BOUND_MS, now: () => number = Date.now): Promise<boolean> {
  const { stamp: current, newest } = await boards.freshness(phaseId, DEFAULT_VIEW_KEY);
  if (current === stamp) return false;
  return newest !== null && now() - newest.getTime() < boundMs;
}
