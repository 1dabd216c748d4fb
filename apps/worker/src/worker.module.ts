import { Global, Module, type OnApplicationShutdown, Inject, Logger } from '@nestjs/common';
import { loadWorkerConfig, type WorkerConfig } from '@podium/config';
import { startQueue } from '@podium/contracts';
import { createDb, LeaderboardRepository, RobustnessRepository, SubmissionRepository, type Db } from '@podium/db';
import { Pool } from 'pg';
import PgBoss from 'pg-boss';
import { LeaderboardModule } from './leaderboard/leaderboard.module';
import { RobustnessModule } from './robustness/robustness.module';
import { ScoringModule } from './scoring/scoring.module';
import { HealthServer, WORKER_HEALTH, WorkerHealth } from './health/health';
import { PG_BOSS, WORKER_CONFIG } from './tokens';

const DB = Symbol('DB');
/** The pg pool the leaderboard repository stores boards through (binary parameters, not Prisma's query compiler). */
const BOARD_WRITES = Symbol('BOARD_WRITES');
const queueLog = new Logger('Queue');
const dbLog = new Logger('Database');
/** An idle pooled connection broke (database restarted): the pool opens a new one on the next query. */
const poolError = (e: Error) => dbLog.warn({ msg: `connection lost: ${e.message}; reconnecting on next query`, event: 'reconnecting' });

class DbCloser implements OnApplicationShutdown {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(BOARD_WRITES) private readonly boardWrites: Pool,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.db.$disconnect(), this.boardWrites.end()]);
  }
}

/**
 * What every worker module uses: the configuration, the database and its repositories, pg-boss.
 * Global, so each queue's module (scoring/, robustness/, leaderboard/, with leases/ and nli/
 * beside them) declares only its own providers.
 */
@Global()
@Module({
  providers: [
    { provide: WORKER_CONFIG, useFactory: (): WorkerConfig => loadWorkerConfig() },
    { provide: DB, inject: [WORKER_CONFIG], useFactory: (c: WorkerConfig) => createDb(c.DATABASE_URL, { maxConnections: 4, onError: poolError, idleInTransactionTimeoutMs: c.PODIUM_DB_IDLE_TX_TIMEOUT_SECONDS * 1000 }) },
    { provide: SubmissionRepository, inject: [DB], useFactory: (db: Db) => new SubmissionRepository(db) },
    { provide: RobustnessRepository, inject: [DB], useFactory: (db: Db) => new RobustnessRepository(db) },
    {
      provide: BOARD_WRITES,
      inject: [WORKER_CONFIG],
      useFactory: (c: WorkerConfig) => {
        // Two: each of the (default two) board threads' boards are stored in turn.
        const pool = new Pool({ connectionString: c.DATABASE_URL, max: 2, connectionTimeoutMillis: 10_000, idle_in_transaction_session_timeout: c.PODIUM_DB_IDLE_TX_TIMEOUT_SECONDS * 1000, application_name: `${c.PODIUM_WORKER_NAME}:boards` });
        pool.on('error', poolError);
        return pool;
      },
    },
    { provide: LeaderboardRepository, inject: [DB, BOARD_WRITES], useFactory: (db: Db, writes: Pool) => new LeaderboardRepository(db, writes) },
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
    HealthServer,
    DbCloser,
  ],
  exports: [WORKER_CONFIG, WORKER_HEALTH, SubmissionRepository, RobustnessRepository, LeaderboardRepository, PG_BOSS],
})
class WorkerInfrastructureModule {}

/** The worker: one module per queue it consumes, on the shared infrastructure. */
@Module({ imports: [WorkerInfrastructureModule, ScoringModule, RobustnessModule, LeaderboardModule] })
export class WorkerModule {}
