import { Inject, Injectable } from '@nestjs/common';
import { LeaderboardRepository, ScoreRepository } from '@podium/db';
import { PhaseMetrics } from '@podium/leaderboard';

export type { MetricSelection, PhaseForMetrics } from '@podium/leaderboard';
export { COMBINED_CORPUS_NOTE } from '@podium/leaderboard';

/**
 * @podium/leaderboard's PhaseMetrics as a Nest provider: the instance pages and downloads read
 * metric matrices (combined ones cached per stamp) through it, as the worker's leaderboards do.
 * The constructor only names the providers to inject: the base class lives in a lib without Nest
 * decorators, so no parameter types are emitted for it.
 */
@Injectable()
export class PhaseMetricsService extends PhaseMetrics {
  constructor(@Inject(ScoreRepository) scores: ScoreRepository, @Inject(LeaderboardRepository) boards: LeaderboardRepository) {
    super(scores, boards);
  }
}
