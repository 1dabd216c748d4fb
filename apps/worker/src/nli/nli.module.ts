import { Module } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { WORKER_HEALTH, type WorkerHealth } from '../health/health';
import { NLI_SCORER, WORKER_CONFIG } from '../tokens';
import { createNliScorer } from './nli.adapter';

/** The worker's NLI scorer (null where no model is configured), one per process, shared by scoring and robustness. */
@Module({
  providers: [{ provide: NLI_SCORER, inject: [WORKER_CONFIG, WORKER_HEALTH], useFactory: (c: WorkerConfig, h: WorkerHealth) => createNliScorer(c, h) }],
  exports: [NLI_SCORER],
})
export class NliModule {}
