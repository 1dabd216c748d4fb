import { Module } from '@nestjs/common';
import { LeaderboardResolver } from './leaderboard.resolver';
import { LeaderboardService } from './leaderboard.service';
import { PhaseMetricsService } from './phase-metrics.service';

@Module({ providers: [LeaderboardResolver, LeaderboardService, PhaseMetricsService], exports: [LeaderboardService, PhaseMetricsService] })
export class LeaderboardModule {}
