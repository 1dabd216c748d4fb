import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../leaderboard/leaderboard.module';
import { SubmissionsModule } from '../submissions/submissions.module';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

@Module({ imports: [LeaderboardModule, SubmissionsModule], controllers: [DownloadsController], providers: [DownloadsService] })
export class DownloadsModule {}
