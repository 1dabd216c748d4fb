import { Module, type OnApplicationShutdown, Inject, Logger } from '@nestjs/common';
import { loadWorkerConfig, type WorkerConfig } from '@podium/config';
import { startQueue } from '@podium/contracts';
import { type DataOptions, defaultCacheDir, parseDataMirror } from '@podium/datasets';
import { createDb, LeaderboardRepository, RobustnessRepository, SubmissionRepository, type Db } from '@podium/db';
import PgBoss from 'pg-boss';
import { HealthServer, WORKER_HEALTH, WorkerHealth } from './health';
import { LeaderboardProcessor } from './leaderboard.processor';
import { LeaseKeeper } from './lease-keeper';
import { createNliScorer } from './nli.adapter';
import { RobustnessProcessor } from './robustness.processor';
import { ROBUSTNESS_DATA_OPTIONS, RobustnessService } from './robustness.service';
import { ScoringProcessor } from './scoring.processor';
import { ScoringService } from './scoring.service';
import { NLI_SCORER, PG_BOSS, WORKER_CONFIG } from './tokens';

const DB = Symbol('DB');
const queueLog = new Logger('Queue');
const dbLog = new Logger('Database');
/** An idle pooled connection broke (database restarted): the pool opens a new one on the next query. */
const poolError = (e: Error) => dbLog.warn({ msg: `connection lost: ${e.message}; reconnecting on next query`, event: 'reconnecting' });

class DbCloser implements OnApplicationShutdown {
  constructor(@Inject(DB) private readonly db: Db) {}
  async onApplicationShutdown(): Promise<void> {
    await this.db.$disconnect();
  }
}

@Module({
  providers: [
    { provide: WORKER_CONFIG, useFactory: (): WorkerConfig => loadWorkerConfig() },
    { provide: DB, inject: [WORKER_CONFIG], useFactory: (c: WorkerConfig) => createDb(c.DATABASE_URL, { maxConnections: 4, onError: poolError }) },
    { provide: SubmissionRepository, inject: [DB], useFactory: (db: Db) => new SubmissionRepository(db) },
    { provide: RobustnessRepository, inject: [DB], useFactory: (db: Db) => new RobustnessRepository(db) },
    { provide: LeaderboardRepository, inject: [DB], useFactory: (db: Db) => new LeaderboardRepository(db) },
    {
      provide: PG_BOSS,
      inject: [WORKER_CONFIG],
      useFactory: async (c: WorkerConfig) => {
        const boss = new PgBoss({ connectionString: c.DATABASE_URL, max: 3, application_name: c.PODIUM_WORKER_NAME, schema: c.PODIUM_QUEUE_SCHEMA });
        // pg-boss keeps polling through a database restart; it reports each failed poll here.
        // At most one line per 5 s: a poll every half second fails while the database is down.
        let lastLogged = 0;
        boss.on('error', (e: unknown) => {
          if (Date.now() - lastLogged < 5_000) return;
          lastLogged = Date.now();
          queueLog.warn({ msg: `queue: ${e instanceof Error ? e.message : String(e)} (pg-boss retries on its next poll)`, event: 'reconnecting' });
        });
        await startQueue(boss, 10, 500, (m) => queueLog.warn({ msg: m, event: 'reconnecting' }));
        return boss;
      },
    },
    { provide: WORKER_HEALTH, inject: [WORKER_CONFIG], useFactory: (c: WorkerConfig) => new WorkerHealth(c.PODIUM_WORKER_NAME, c.PODIUM_NLI_PROVIDER) },
    { provide: NLI_SCORER, inject: [WORKER_CONFIG, WORKER_HEALTH], useFactory: (c: WorkerConfig, h: WorkerHealth) => createNliScorer(c, h) },
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
    LeaseKeeper,
    ScoringService,
    ScoringProcessor,
    RobustnessService,
    RobustnessProcessor,
    LeaderboardProcessor,
    HealthServer,
  ],
})
export class WorkerModule {}
