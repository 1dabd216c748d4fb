import { Module } from '@nestjs/common';
import { LeaderboardProcessor } from './leaderboard.processor';

/** The `compute-leaderboards` queue: computes and stores a phase's boards in a thread (ADR 0011). */
@Module({ providers: [LeaderboardProcessor] })
export class LeaderboardModule {}
