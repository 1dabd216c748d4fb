/**
 * Backup benchmark: `npm run bench:backup` (issue #25). On an embedded PostgreSQL of its own, per
 * size (S systems × N instances: a task, its test set, S submissions with N outputs each and two
 * scored metrics, one with statistics, written through the repositories as the api and the worker
 * write them):
 *  - baseline: every table read with plain `COPY … TO STDOUT` in one transaction, bytes discarded
 *    (the least any backup over the wire can cost);
 *  - `writeBackup`: seconds, file size, and the ratio to the baseline;
 *  - `restoreBackup` into a second, migrated, empty database on the same server: seconds (it
 *    reads the file twice and the loaded tables once more, to check them).
 * Sizes (env): BENCH_SIZES, e.g. "11x560,40x5000" (default), systems×instances.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { restoreBackup, writeBackup } from '@podium/backup';
import { createDb, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository } from '@podium/db';
import { startOwnPostgres } from '../test/e2e/support/postgres';
import { createDatabase, freePort, repoRoot } from '../test/e2e/support/processes';
import { defined } from '../test/support/defined';

const SIZES = (process.env['BENCH_SIZES'] ?? '11x560,40x5000').split(',').map((s) => {
  const [systems, instances] = s.split('x').map(Number);
  if (!systems || !instances) throw new Error(`BENCH_SIZES: '${s}' is not SYSTEMSxINSTANCES`);
  return { systems, instances };
});
const say = (m: string) => process.stderr.write(`[bench:backup] ${m}\n`);

function migrate(url: string): void {
  execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: url }, stdio: 'pipe' });
}

async function fill(url: string, systems: number, instances: number): Promise<void> {
  const db = createDb(url, { maxConnections: 2 });
  try {
    const identity = new IdentityRepository(db);
    const tasks = new TaskRepository(db);
    const subs = new SubmissionRepository(db);
    const organiser = await identity.createUser('bench-organiser', Role.ORGANISER);
    const team = await identity.createTeam('bench-team', []);
    const task = await tasks.createTask({ slug: 'bench', title: 'Bench', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [], createdById: organiser.id });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'p', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 10_000, totalLimit: 10_000, leaderboardBeforeClose: true });
    await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: instances }, (_, i) => ({ externalId: `i${i}`, source: `Quelle Satz Nummer ${i} mit einigen Wörtern`, references: [`source sentence number ${i} with a few words`] })));
    const testSetId = defined(defined(await tasks.phaseById(phase.id), 'phase').testSetId, 'test set');
    const ids = await tasks.instanceIdsOf(testSetId);
    for (let s = 0; s < systems; s++) {
      const sub = await subs.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: `sys-${s}`, description: '', checksum: `c${s}`, bypassLimits: true, outputs: ids.map((x, i) => ({ instanceId: x.id, text: `system ${s} output for sentence ${i} with words` })) },
        async () => undefined,
      );
      const values = ids.map((_, i) => Math.abs(Math.sin(s * 7919 + i)) * 100);
      await subs.saveScores(sub.id, [{ metric: 'chrf', signature: 'chrf', values }, { metric: 'bleu', signature: 'bleu', values, stats: values.map((v) => [v, 4, 3, 2, 1, 8, 7, 6, 5, 9]) }], [{ metric: 'chrf', signature: 'chrf', value: 50 }]);
    }
  } finally {
    await db.$disconnect();
  }
}

/** Every table through plain COPY in one transaction, bytes thrown away. */
async function rawCopy(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  const tables = await client.query<{ name: string }>(`SELECT quote_ident(relname) AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'`);
  for (const t of tables.rows) await pipeline(client.query(copyTo(`COPY public.${t.name} TO STDOUT`)), new Writable({ write: (_c, _e, done) => done() }));
  await client.query('COMMIT');
  await client.end();
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  say(`${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const server = await startOwnPostgres(`bench-backup-${process.pid}`, await freePort(), false);
  const dir = mkdtempSync(path.join(tmpdir(), 'podium-bench-backup-'));
  const lines: string[] = ['size              rows      raw COPY s  backup s  ratio  file MiB  restore s'];
  try {
    for (const { systems, instances } of SIZES) {
      const source = await createDatabase(server.url, 'bench_source');
      const target = await createDatabase(server.url, 'bench_target');
      migrate(source.url);
      migrate(target.url);
      say(`filling ${systems} systems × ${instances} instances…`);
      await fill(source.url, systems, instances);
      const raw = await rawCopy(source.url);
      const file = path.join(dir, `${systems}x${instances}.backup`);
      let t = performance.now();
      const written = await writeBackup({ databaseUrl: source.url, out: file, podiumVersion: 'bench' });
      const backupS = (performance.now() - t) / 1000;
      t = performance.now();
      await restoreBackup({ databaseUrl: target.url, file });
      const restoreS = (performance.now() - t) / 1000;
      const rows = written.manifest.tables.reduce((a, x) => a + x.rows, 0);
      lines.push(
        `${`${systems}x${instances}`.padEnd(16)}  ${String(rows).padStart(8)}  ${raw.toFixed(2).padStart(10)}  ${backupS.toFixed(2).padStart(8)}  ${(backupS / raw).toFixed(1).padStart(5)}  ${(written.fileBytes / 2 ** 20).toFixed(2).padStart(8)}  ${restoreS.toFixed(2).padStart(9)}`,
      );
      await source.drop();
      await target.drop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.stop();
  }
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
