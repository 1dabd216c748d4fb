import { Logger } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import type { NliScorer } from './metric-runner';

/** Placeholder until libs/nli lands: no NLI scorer, so NLI metrics fail with a clear reason. */
export async function createNliScorer(_config: WorkerConfig): Promise<NliScorer | null> {
  new Logger('nli').warn('NLI metrics are unavailable in this build');
  return null;
}
