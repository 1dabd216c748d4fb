import { Module } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { NLI_SCORER, WORKER_CONFIG } from '../tokens';
import { createNliScorer } from './nli.adapter';

/** The worker's NLI scorer (null where no model is configured), one per process, shared by scoring and robustness. */
@Module({
  providers: [{ provide: NLI_SCORER, inject: [WORKER_CONFIG], useFactory: (c: WorkerConfig) => createNliScorer(c) }],
  exports: [NLI_SCORER],
})
export class NliModule {}
