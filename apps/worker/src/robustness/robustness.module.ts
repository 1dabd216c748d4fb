import { Module } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { type DataOptions, defaultCacheDir, parseDataMirror } from '@podium/datasets';
import { NliModule } from '../nli/nli.module';
import { WORKER_CONFIG } from '../tokens';
import { RobustnessProcessor } from './robustness.processor';
import { ROBUSTNESS_DATA_OPTIONS, RobustnessService } from './robustness.service';

/** The robustness-report queue: a task metric's preference test on a MENLI or generated suite. */
@Module({
  imports: [NliModule],
  providers: [
    {
      // Where built-in suites are fetched from and cached; a bad PODIUM_DATA_MIRROR fails at boot.
      provide: ROBUSTNESS_DATA_OPTIONS,
      inject: [WORKER_CONFIG],
      useFactory: (c: WorkerConfig): DataOptions => ({
        cacheDir: defaultCacheDir({ PODIUM_CACHE: c.PODIUM_CACHE, XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] }),
        source: parseDataMirror(c.PODIUM_DATA_MIRROR),
      }),
    },
    RobustnessService,
    RobustnessProcessor,
  ],
})
export class RobustnessModule {}
