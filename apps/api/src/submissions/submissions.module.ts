import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../leaderboard/leaderboard.module';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsResolver } from './submissions.resolver';
import { SubmissionsService } from './submissions.service';

@Module({
  imports: [
    LeaderboardModule,
    LifecycleModule,
  ],
  controllers: [SubmissionsController],
  providers: [SubmissionsResolver, SubmissionsService],
  exports: [SubmissionsService],
})
export class SubmissionsModule {}
