import { Module, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { loadWorkerConfig, type WorkerConfig } from '@podium/config';
import { startQueue } from '@podium/contracts';
import { type DataOptions, defaultCacheDir, parseDataMirror } from '@podium/datasets';
import { createDb, RobustnessRepository, SubmissionRepository, type Db } from '@podium/db';
import PgBoss from 'pg-boss';
import { createNliScorer } from './nli.adapter';
import { RobustnessProcessor } from './robustness.processor';
import { ROBUSTNESS_DATA_OPTIONS, RobustnessService } from './robustness.service';
import { ScoringProcessor } from './scoring.processor';
import { ScoringService } from './scoring.service';
import { NLI_SCORER, PG_BOSS, WORKER_CONFIG } from './tokens';

const DB = Symbol('DB');

class DbCloser implements OnApplicationShutdown {
  constructor(@Inject(DB) private readonly db: Db) {}
  async onApplicationShutdown(): Promise<void> {
    await this.db.$disconnect();
  }
}

@Module({
  providers: [
    { provide: WORKER_CONFIG, useFactory: (): WorkerConfig => loadWorkerConfig() },
    { provide: DB, inject: [WORKER_CONFIG], useFactory: (c: WorkerConfig) => createDb(c.DATABASE_URL, { maxConnections: 4 }) },
    { provide: SubmissionRepository, inject: [DB], useFactory: (db: Db) => new SubmissionRepository(db) },
    { provide: RobustnessRepository, inject: [DB], useFactory: (db: Db) => new RobustnessRepository(db) },
    {
      provide: PG_BOSS,
      inject: [WORKER_CONFIG],
      useFactory: async (c: WorkerConfig) => {
        const boss = new PgBoss({ connectionString: c.DATABASE_URL, max: 3, application_name: c.PODIUM_WORKER_NAME });
        boss.on('error', (e: unknown) => console.error(`pg-boss: ${String(e)}`));
        await startQueue(boss);
        return boss;
      },
    },
    { provide: NLI_SCORER, inject: [WORKER_CONFIG], useFactory: (c: WorkerConfig) => createNliScorer(c) },
    {
      // Where built-in suites are fetched from and cached; a bad PODIUM_DATA_MIRROR fails at boot.
      provide: ROBUSTNESS_DATA_OPTIONS,
      inject: [WORKER_CONFIG],
      useFactory: (c: WorkerConfig): DataOptions => ({
        cacheDir: defaultCacheDir({ PODIUM_CACHE: c.PODIUM_CACHE, XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] }),
        source: parseDataMirror(c.PODIUM_DATA_MIRROR),
      }),
    },
    DbCloser,
    ScoringService,
    ScoringProcessor,
    RobustnessService,
    RobustnessProcessor,
  ],
})
export class WorkerModule {}
