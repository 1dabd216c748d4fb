import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { ApiConfig } from '@podium/config';
import { LifecycleRepository } from '@podium/db';
import { API_CONFIG } from '../common/tokens';
import { LeaderboardJobs } from '../leaderboard/leaderboard-jobs';

/**
 * Records the close of phases whose closesAt passed: freezes their primaries (teams without one
 * get their latest scored submission, audited as the system). Submissions and primary switches
 * stop at closesAt without it (the state machine reads the clock); the default board ranks the
 * same submission per team before and after, so the sweep's delay changes no ranking.
 * Several api processes may sweep at once: each phase is frozen once, under its row lock.
 */
@Injectable()
export class PhaseCloser implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(PhaseCloser.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly lifecycle: LifecycleRepository,
    private readonly leaderboards: LeaderboardJobs,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.PODIUM_PHASE_CLOSE_SWEEP_SECONDS * 1000);
    this.timer.unref();
    void this.sweep();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One sweep; a sweep still running is not started twice. Never throws. */
  sweep(now: Date = new Date()): Promise<void> {
    this.running ??= this.freeze(now).finally(() => (this.running = undefined));
    return this.running;
  }

  private async freeze(now: Date): Promise<void> {
    try {
      for (const phaseId of await this.lifecycle.freezeDuePhases(now)) {
        this.log.log({ msg: `phase ${phaseId} closed: primaries frozen`, phaseId });
        await this.leaderboards.refresh(phaseId, 'lifecycle');
      }
    } catch (e) {
      this.log.warn({ msg: `could not record closed phases: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
}
