import { Injectable, Logger } from '@nestjs/common';
import { sendLeaderboardJob, type ComputeLeaderboardsJob } from '@podium/contracts';
import type { LeaderboardView } from '@podium/leaderboard';
import PgBoss from 'pg-boss';

/** How long this process waits before it asks again for the same board that is still missing. */
const ASK_AGAIN_MS = 5_000;

/**
 * Queues leaderboard computations for the worker (the API never computes one). Sends coalesce in
 * the queue (one waiting job per phase); reads that find a board missing ask at most once per
 * {@link ASK_AGAIN_MS} per phase, view and stamp, so a busy board costs no write per request.
 */
@Injectable()
export class LeaderboardJobs {
  private readonly log = new Logger(LeaderboardJobs.name);
  private readonly asked = new Map<string, number>();

  constructor(private readonly boss: PgBoss) {}

  /** Every default view of a phase, after its data or settings changed. Never throws. */
  async refresh(phaseId: string, reason: ComputeLeaderboardsJob['reason']): Promise<void> {
    await sendLeaderboardJob(this.boss, phaseId, reason).catch((e: unknown) =>
      this.log.warn({ msg: `could not queue the leaderboards of phase ${phaseId}: ${e instanceof Error ? e.message : String(e)}`, phaseId }),
    );
  }

  /** A read found the board of `stamp` missing: queue the defaults, or this one view. */
  async request(phaseId: string, stamp: string, view: LeaderboardView | null, key: string): Promise<void> {
    const id = `${phaseId}|${stamp}|${view ? key : '*'}`;
    const now = Date.now();
    if ((this.asked.get(id) ?? 0) > now - ASK_AGAIN_MS) return;
    this.asked.set(id, now);
    if (this.asked.size > 10_000) for (const [k, t] of this.asked) if (t <= now - ASK_AGAIN_MS) this.asked.delete(k);
    await sendLeaderboardJob(this.boss, phaseId, 'requested', view ? [view] : null).catch((e: unknown) =>
      this.log.warn({ msg: `could not queue leaderboard of phase ${phaseId}: ${e instanceof Error ? e.message : String(e)}`, phaseId }),
    );
  }
}
