import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { ApiConfig } from '@podium/config';
import { ensureQueue, SCORE_SUBMISSION_QUEUE, startQueue } from '@podium/contracts';
import { IdentityRepository, LifecycleRepository, ScoreRepository, SubmissionRepository, TaskRepository, createDb, type Db } from '@podium/db';
import PgBoss from 'pg-boss';
import { API_CONFIG, DB } from './common/tokens';

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
  boss.on('error', (e: Error) => logger.error(`pg-boss: ${e.message}`));
  await startQueue(boss);
  await ensureQueue(boss, SCORE_SUBMISSION_QUEUE);
  return boss;
}

/** Closes pg-boss and the Prisma client when the app shuts down. */
@Injectable()
class DbLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(DB) private readonly db: Db,
    private readonly boss: PgBoss,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, timeout: 5000 });
    await this.db.$disconnect();
  }
}

/** Db, the repositories and PgBoss as Nest providers, available everywhere. */
@Global()
@Module({})
export class DbModule {
  /** `queueSchema` moves pg-boss out of its shared `pgboss` schema (tests that no worker may serve). */
  static forRoot(config: ApiConfig, queueSchema?: string): DynamicModule {
    return {
      module: DbModule,
      providers: [
        { provide: API_CONFIG, useValue: config },
        { provide: DB, useFactory: () => createDb(config.DATABASE_URL) },
        { provide: PgBoss, useFactory: () => startBoss(config.DATABASE_URL, queueSchema) },
        { provide: IdentityRepository, useFactory: (db: Db) => new IdentityRepository(db), inject: [DB] },
        { provide: TaskRepository, useFactory: (db: Db) => new TaskRepository(db), inject: [DB] },
        { provide: SubmissionRepository, useFactory: (db: Db) => new SubmissionRepository(db), inject: [DB] },
        { provide: ScoreRepository, useFactory: (db: Db) => new ScoreRepository(db), inject: [DB] },
        { provide: LifecycleRepository, useFactory: (db: Db) => new LifecycleRepository(db), inject: [DB] },
        DbLifecycle,
      ],
      exports: [API_CONFIG, DB, PgBoss, IdentityRepository, TaskRepository, SubmissionRepository, ScoreRepository, LifecycleRepository],
    };
  }
}
