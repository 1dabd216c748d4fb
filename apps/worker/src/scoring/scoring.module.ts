import { Module } from '@nestjs/common';
import { LeasesModule } from '../leases/leases.module';
import { NliModule } from '../nli/nli.module';
import { ScoringProcessor } from './scoring.processor';
import { ScoringService } from './scoring.service';

/** The `score-submission` queue: scores a submission with its task's metrics under a lease. */
@Module({ imports: [LeasesModule, NliModule], providers: [ScoringService, ScoringProcessor] })
export class ScoringModule {}
