import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { ApiConfig } from '@podium/config';
import { COMPUTE_LEADERBOARDS_QUEUE, ensureQueue, SCORE_SUBMISSION_QUEUE, startQueue } from '@podium/contracts';
import { IdentityRepository, LeaderboardRepository, LifecycleRepository, ScoreRepository, SubmissionRepository, TaskRepository, createDb, type Db } from '@podium/db';
import { Pool } from 'pg';
import PgBoss from 'pg-boss';
import { RequestLoaders } from './common/loaders';
import { API_CONFIG, DB, QUEUE_SCHEMA } from './common/tokens';

/** Raw connections for streamed uploads (COPY, which Prisma does not offer; ADR 0028). */
export const UPLOAD_POOL = Symbol('UPLOAD_POOL');

/** Starts pg-boss (creating its `pgboss` schema on first run) and the scoring queue. */
export async function startBoss(databaseUrl: string, schema?: string, logger = new Logger('PgBoss')): Promise<PgBoss> {
  // The API only sends jobs; the worker supervises (maintenance) and schedules.
  const boss = new PgBoss({
    connectionString: databaseUrl,
    max: 4,
    supervise: false,
    schedule: false,
    application_name: 'podium-api',
    ...(schema ? { schema } : {}),
  });
  boss.on('error', (e: Error) => logger.warn({ msg: `queue: ${e.message} (pg-boss retries)`, event: 'reconnecting' }));
  await startQueue(boss, 10, 500, (m) => logger.warn({ msg: m, event: 'reconnecting' }));
  await ensureQueue(boss, SCORE_SUBMISSION_QUEUE, 8, 300, (m) => logger.warn({ msg: m, event: 'retrying' }));
  await ensureQueue(boss, COMPUTE_LEADERBOARDS_QUEUE, 8, 300, (m) => logger.warn({ msg: m, event: 'retrying' }));
  return boss;
}

/** Closes pg-boss and the Prisma client when the app shuts down. */
@Injectable()
class DbLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(DB) private readonly db: Db,
    private readonly boss: PgBoss,
    @Inject(UPLOAD_POOL) private readonly uploads: Pool,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, timeout: 5000 });
    await this.db.$disconnect();
    await this.uploads.end();
  }
}

/** Db, the repositories and PgBoss as Nest providers, available everywhere. */
@Global()
@Module({})
export class DbModule {
  /** `queueSchema` moves pg-boss out of its shared `pgboss` schema (tests that no worker may serve). */
  static forRoot(config: ApiConfig, queueSchema?: string, onQuery?: (sql: string) => void): DynamicModule {
    return {
      module: DbModule,
      providers: [
        { provide: API_CONFIG, useValue: config },
        { provide: QUEUE_SCHEMA, useValue: queueSchema ?? 'pgboss' },
        {
          provide: DB,
          useFactory: () =>
            createDb(config.DATABASE_URL, {
              connectTimeoutMs: config.PODIUM_DB_CONNECT_TIMEOUT_SECONDS * 1000,
              queryTimeoutMs: config.PODIUM_DB_QUERY_TIMEOUT_SECONDS * 1000,
              onError: (e) => new Logger('Database').warn({ msg: `connection lost: ${e.message}; reconnecting on next query`, event: 'reconnecting' }),
              ...(onQuery ? { onQuery } : {}),
            }),
        },
        { provide: PgBoss, useFactory: () => startBoss(config.DATABASE_URL, queueSchema) },
        { provide: IdentityRepository, useFactory: (db: Db) => new IdentityRepository(db), inject: [DB] },
        { provide: TaskRepository, useFactory: (db: Db) => new TaskRepository(db), inject: [DB] },
        {
          provide: UPLOAD_POOL,
          useFactory: () => {
            // A connection is taken only for an upload's final transaction (its file is spooled first),
            // so a few serve many uploads; the connect timeout is Prisma's (ADR 0019).
            const pool = new Pool({ connectionString: config.DATABASE_URL, max: 6, connectionTimeoutMillis: config.PODIUM_DB_CONNECT_TIMEOUT_SECONDS * 1000, application_name: 'podium-api-uploads' });
            pool.on('error', (e) => new Logger('Database').warn({ msg: `upload connection lost: ${e.message}`, event: 'reconnecting' }));
            return pool;
          },
        },
        { provide: SubmissionRepository, useFactory: (db: Db, pool: Pool) => new SubmissionRepository(db, pool), inject: [DB, UPLOAD_POOL] },
        { provide: ScoreRepository, useFactory: (db: Db) => new ScoreRepository(db), inject: [DB] },
        { provide: LifecycleRepository, useFactory: (db: Db) => new LifecycleRepository(db), inject: [DB] },
        { provide: LeaderboardRepository, useFactory: (db: Db) => new LeaderboardRepository(db), inject: [DB] },
        DbLifecycle,
        RequestLoaders,
      ],
      exports: [API_CONFIG, DB, QUEUE_SCHEMA, PgBoss, IdentityRepository, TaskRepository, SubmissionRepository, ScoreRepository, LifecycleRepository, LeaderboardRepository, RequestLoaders],
    };
  }
}
