import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../leaderboard/leaderboard.module';
import { TestInputModule } from '../test-input/test-input.module';
import { CommitmentController } from './commitment.controller';
import { PhasesResolver } from './phases.resolver';
import { PhasesService } from './phases.service';

@Module({ imports: [TestInputModule, LeaderboardModule], controllers: [CommitmentController], providers: [PhasesResolver, PhasesService], exports: [PhasesService] })
export class PhasesModule {}
