import { Module } from '@nestjs/common';
import { BoardAnswers } from './board-answers';
import { LeaderboardJobs } from './leaderboard-jobs';
import { LeaderboardResolver } from './leaderboard.resolver';
import { LeaderboardSystemResolver } from './leaderboard-system.resolver';
import { SystemPairResolver } from './system-pair.resolver';
import { LeaderboardService } from './leaderboard.service';
import { PhaseMetricsService } from './phase-metrics.service';
import { RegistriesResolver } from './registries.resolver';

@Module({ providers: [BoardAnswers, LeaderboardResolver, RegistriesResolver, LeaderboardSystemResolver, SystemPairResolver, LeaderboardService, PhaseMetricsService, LeaderboardJobs], exports: [BoardAnswers, LeaderboardService, PhaseMetricsService, LeaderboardJobs] })
export class LeaderboardModule {}
