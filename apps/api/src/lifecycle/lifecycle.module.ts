import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../leaderboard/leaderboard.module';
import { LifecycleResolver } from './lifecycle.resolver';
import { LifecycleService } from './lifecycle.service';

@Module({ imports: [LeaderboardModule], providers: [LifecycleResolver, LifecycleService], exports: [LifecycleService] })
export class LifecycleModule {}
