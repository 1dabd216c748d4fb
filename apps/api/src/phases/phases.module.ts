import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../leaderboard/leaderboard.module';
import { TestInputModule } from '../test-input/test-input.module';
import { CommitmentController } from './commitment.controller';
import { PhasesResolver } from './phases.resolver';
import { PhasesService } from './phases.service';
import { PhaseCloser } from './phase-closer';

@Module({ imports: [TestInputModule, LeaderboardModule], controllers: [CommitmentController], providers: [PhasesResolver, PhasesService, PhaseCloser], exports: [PhasesService, PhaseCloser] })
export class PhasesModule {}
