import { Module } from '@nestjs/common';
import { BundleRepository, type Db } from '@podium/db';
import { DB } from '../common/tokens';
import { LeaderboardModule } from '../leaderboard/leaderboard.module';
import { BundlesController } from './bundles.controller';
import { BundlesService } from './bundles.service';

@Module({
  imports: [LeaderboardModule],
  controllers: [BundlesController],
  providers: [BundlesService, { provide: BundleRepository, useFactory: (db: Db) => new BundleRepository(db), inject: [DB] }],
})
export class BundlesModule {}
