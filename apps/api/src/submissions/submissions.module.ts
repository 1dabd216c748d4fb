import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import type { ApiConfig } from '@podium/config';
import { memoryStorage } from 'multer';
import { API_CONFIG } from '../common/tokens';
import { LeaderboardModule } from '../leaderboard/leaderboard.module';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsResolver } from './submissions.resolver';
import { SubmissionsService } from './submissions.service';

@Module({
  imports: [
    LeaderboardModule,
    LifecycleModule,
    MulterModule.registerAsync({
      // Larger files are refused by multer with 413 before they are read into memory.
      useFactory: (config: ApiConfig) => ({ storage: memoryStorage(), limits: { fileSize: config.PODIUM_MAX_UPLOAD_BYTES, files: 1, fields: 20 } }),
      inject: [API_CONFIG],
    }),
  ],
  controllers: [SubmissionsController],
  providers: [SubmissionsResolver, SubmissionsService],
  exports: [SubmissionsService],
})
export class SubmissionsModule {}
