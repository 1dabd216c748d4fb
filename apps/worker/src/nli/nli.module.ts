import { Module } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { WORKER_HEALTH, type WorkerHealth } from '../health/health';
import { createEmbeddingScorer } from '../embeddings/embedding.adapter';
import { EMBEDDING_SCORER, NLI_SCORER, WORKER_CONFIG } from '../tokens';
import { createNliScorer } from './nli.adapter';

/**
 * The worker's model hosts, one per process, shared by scoring and robustness: the NLI scorer
 * (null where no model is configured) and the text-encoder scorer of the embedding metrics.
 */
@Module({
  providers: [
    { provide: NLI_SCORER, inject: [WORKER_CONFIG, WORKER_HEALTH], useFactory: (c: WorkerConfig, h: WorkerHealth) => createNliScorer(c, h) },
    { provide: EMBEDDING_SCORER, inject: [WORKER_CONFIG], useFactory: (c: WorkerConfig) => createEmbeddingScorer(c) },
  ],
  exports: [NLI_SCORER, EMBEDDING_SCORER],
})
export class NliModule {}
