import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../leaderboard/leaderboard.module';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

@Module({ imports: [LeaderboardModule], controllers: [DownloadsController], providers: [DownloadsService] })
export class DownloadsModule {}
