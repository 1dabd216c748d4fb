import { Injectable } from '@nestjs/common';
import { LeaderboardRepository, ScoreRepository } from '@podium/db';
import { PhaseMetrics } from '@podium/leaderboard';

export type { MetricSelection, PhaseForMetrics } from '@podium/leaderboard';
export { COMBINED_CORPUS_NOTE } from '@podium/leaderboard';

/**
 * @podium/leaderboard's PhaseMetrics as a Nest provider: the instance pages and downloads read
 * metric matrices (combined ones cached per stamp) through it, as the worker's leaderboards do.
 */
@Injectable()
export class PhaseMetricsService extends PhaseMetrics {
  constructor(scores: ScoreRepository, boards: LeaderboardRepository) {
    super(scores, boards);
  }
}
