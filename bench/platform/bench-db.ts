/**
 * The database of a benchmark: an embedded PostgreSQL of its own (test/e2e/support/postgres.ts),
 * migrated with `prisma migrate deploy`, and a Prisma client on it. What it starts is stopped by
 * `cleanup` (run in order, most recent first). Shared by bench:serving, bench:arena (board-phase.ts)
 * and bench:score-export.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createDb, type Db } from '@podium/db';
import { startOwnPostgres } from '../../test/e2e/support/postgres';
import { freePort, repoRoot } from '../../test/e2e/support/processes';

export interface BenchDb {
  pgUrl: string;
  db: Db;
  /** The PostgreSQL server's process id (for its CPU time). */
  pgPid: number;
}

/** `name` names the data directory (with this process's id); `maxConnections` bounds the Prisma pool. */
export async function benchDatabase(name: string, cleanup: (() => Promise<void>)[], maxConnections = 2): Promise<BenchDb> {
  const pg = await startOwnPostgres(`bench-${name}-${process.pid}`, await freePort(), false);
  cleanup.unshift(() => pg.stop());
  execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: pg.url }, stdio: 'ignore' });
  const db = createDb(pg.url, { maxConnections });
  cleanup.unshift(() => db.$disconnect());
  return { pgUrl: pg.url, db, pgPid: pg.child.pid ?? 0 };
}
