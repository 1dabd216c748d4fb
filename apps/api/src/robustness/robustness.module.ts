import { Module } from '@nestjs/common';
import { RobustnessRepository, type Db } from '@podium/db';
import { DB } from '../common/tokens';
import { RobustnessController } from './robustness.controller';
import { RobustnessResolver } from './robustness.resolver';
import { RobustnessService } from './robustness.service';

@Module({
  controllers: [RobustnessController],
  providers: [
    { provide: RobustnessRepository, useFactory: (db: Db) => new RobustnessRepository(db), inject: [DB] },
    RobustnessResolver,
    RobustnessService,
  ],
})
export class RobustnessModule {}
