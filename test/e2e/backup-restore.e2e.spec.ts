/**
 * Backups that restore (issue #25): `podium admin backup` of a database that is being written to
 * (submissions and their score columns stored as the api and the worker store them, through the
 * repositories), restored with `podium admin restore` into a second, throw-away PostgreSQL server.
 * The expected rows come from a second reader of the backup's own snapshot (pg_export_snapshot):
 * the restored database must hold exactly those rows, every value equal and every score column's
 * bytes equal, and none of the rows written after the snapshot. A damaged file and a target that
 * holds rows are refused, the database untouched.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { restoreBackup, verifyBackup, writeBackup, type BackupManifest } from '@podium/backup';
import { createDb, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { compiledApp } from '../support/compiled-app';
import { defined } from '../support/defined';
import { createDatabase, databaseUrl, repoRoot } from './support/processes';

// Two PostgreSQL servers, two `prisma migrate deploy` runs and two CLI processes on a shared 2-core machine.
jest.setTimeout(300_000);

const INSTANCES = 12;

/** `prisma migrate deploy`, as `npm run up` and `npm test` apply migrations (and as an operator prepares a restore's target). */
async function migrate(url: string): Promise<void> {
  try {
    await promisify(execFile)(path.join(repoRoot, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: url } });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    throw new Error(`prisma migrate deploy failed: ${err.stdout ?? ''}${err.stderr ?? String(e)}`);
  }
}

/**
 * A second, throw-away embedded PostgreSQL, as `npm run up` starts one (scripts/lib/postgres-server.mjs,
 * never a configured server), stopped by closing its stdin. Its log goes to this process's stderr.
 */
async function startSecondServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['DATABASE_URL'];
  delete env['TEST_DATABASE_URL'];
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'lib', 'postgres-server.mjs'), JSON.stringify({ root: repoRoot, name: `test-restore-${process.pid}`, persistent: false })], {
    cwd: repoRoot,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve((JSON.parse(buf.slice(0, nl)) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`the second PostgreSQL exited (${String(code)}) before it was ready`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.stdin.end();
        await exited;
      }
      child.stdout.destroy();
    },
  };
}

type Rows = Record<string, Record<string, unknown>[]>;

/** Every row of every table of `public` (but Prisma's bookkeeping), by primary key, as the pg driver parses them. */
async function readAll(client: Client): Promise<Rows> {
  const tables = await client.query<{ name: string; ident: string; key: string }>(
    `SELECT c.relname AS name, quote_ident(c.relname) AS ident, string_agg(quote_ident(a.attname), ', ' ORDER BY u.ord) AS key
     FROM pg_class c JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'p'
     CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = u.attnum
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'
     GROUP BY c.relname ORDER BY c.relname`,
  );
  const out: Rows = {};
  for (const t of tables.rows) out[t.name] = (await client.query<Record<string, unknown>>(`SELECT * FROM public.${t.ident} ORDER BY ${t.key}`)).rows;
  return out;
}

describe('podium admin backup and restore', () => {
  let source: { url: string; drop: () => Promise<void> };
  let second: { url: string; stop: () => Promise<void> } | undefined;
  let target: { url: string; drop: () => Promise<void> } | undefined;
  let db: Db;
  let dir: string;
  let file: string;
  let manifest: BackupManifest;
  let snapshotRows: Rows;
  let writtenAfterSnapshot = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'podium-backup-'));
    // The second server starts and is migrated while the source is written to and backed up.
    const targetReady = (async () => {
      second = await startSecondServer();
      // Created and migrated by `restore --create-database` below; dropped at the end.
      const url = new URL(second.url);
      url.pathname = '/podium_restored';
      const server = second.url;
      target = {
        url: url.toString(),
        drop: async () => {
          const c = new Client({ connectionString: server });
          await c.connect();
          await c.query('DROP DATABASE IF EXISTS podium_restored WITH (FORCE)');
          await c.end();
        },
      };
    })();
    targetReady.catch(() => undefined); // awaited below
    source = await createDatabase(databaseUrl(), 'podium_backup_source');
    await migrate(source.url);
    db = createDb(source.url, { maxConnections: 4 });
    const identity = new IdentityRepository(db);
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const organiser = await identity.createUser('backup-organiser', Role.ORGANISER);
    const team = await identity.createTeam('backup-team', []);
    const task = await tasks.createTask({ slug: 'backup-task', title: 'Backups', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [], createdById: organiser.id });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'p', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 1000, totalLimit: 1000, leaderboardBeforeClose: true });
    // Sources with what COPY text escapes: tabs, newlines, backslashes, quotes, non-ASCII.
    await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: INSTANCES }, (_, i) => ({ externalId: `i${i}`, source: `Satz ${i}\tmit\nZeilen \\ "Grüße" ☃`, references: [`ref ${i}`] })));
    const testSetId = defined(defined(await tasks.phaseById(phase.id), 'the phase').testSetId, "the phase's test set");
    const instances = await tasks.instanceIdsOf(testSetId);

    let n = 0;
    /** One submission with its outputs, then (for most) its scores: as the api and the worker write them. */
    const writeOne = async () => {
      const i = n++;
      const sub = await submissions.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: `sys-${i}`, description: `run ${i}`, checksum: `c${i}`, bypassLimits: true, outputs: instances.map((x) => ({ instanceId: x.id, text: `out ${i} ${x.externalId}` })) },
        async () => undefined,
      );
      if (i % 4 !== 3) {
        // Scores that exercise every float64 bit pattern class COPY must carry exactly.
        const values = instances.map((_, k) => (k === 0 ? 0.1 + 0.2 : k === 1 ? -0 : k === 2 ? 5e-324 : Math.sin(i * 31 + k) * 100));
        await submissions.saveScores(sub.id, [{ metric: 'chrf', signature: 'chrf|nc:6|nw:0', values }, { metric: 'bleu', signature: 'bleu|eff:no', values: values.map((v) => v / 2), stats: values.map((_, k) => [k, 1, 2, 3]) }], [
          { metric: 'chrf', signature: 'chrf|nc:6|nw:0', value: i / 3 },
        ]);
      }
    };
    for (let i = 0; i < 8; i++) await writeOne();

    // Two writers keep going while the backup runs.
    let stop = false;
    let snapshotAt: number | null = null;
    let writerError: unknown = null;
    const writer = async () => {
      try {
        while (!stop) {
          await writeOne();
          if (snapshotAt !== null) writtenAfterSnapshot++;
        }
      } catch (e) {
        writerError = e;
        throw e;
      }
    };
    const writers = [writer(), writer()];
    file = path.join(dir, 'podium.backup');
    try {
      const result = await writeBackup({
        databaseUrl: source.url,
        out: file,
        podiumVersion: 'test',
        onSnapshot: async (snapshotId) => {
          snapshotAt = Date.now();
          const reader = new Client({ connectionString: source.url });
          await reader.connect();
          try {
            await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
            await reader.query(`SET TRANSACTION SNAPSHOT '${snapshotId}'`);
            snapshotRows = await readAll(reader);
            await reader.query('COMMIT');
          } finally {
            await reader.end();
          }
          // Rows committed after the snapshot, before any table is copied: the backup must not hold them.
          while (writtenAfterSnapshot < 3 && writerError === null) await new Promise((r) => setTimeout(r, 20));
        },
      });
      manifest = result.manifest;
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    await targetReady;
  });

  afterAll(async () => {
    await db?.$disconnect();
    await target?.drop();
    await second?.stop();
    await source?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates and migrates a database on a second server and restores into it exactly the rows of the snapshot, score bytes included, and none written after it', async () => {
    expect(writtenAfterSnapshot).toBeGreaterThanOrEqual(3);
    const r = spawnSync(process.execPath, [compiledApp('apps/cli/src/main.ts'), 'admin', 'restore', file, '--create-database', '--database-url', defined(target, 'the target').url], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { tables: Record<string, number>; unfinishedSubmissions: string[] };

    const restored = new Client({ connectionString: defined(target, 'the target').url });
    await restored.connect();
    const now = new Client({ connectionString: source.url });
    await now.connect();
    try {
      const got = await readAll(restored);
      // Every table the catalogue knows, in the backup and restored: no hand list.
      expect(Object.keys(got).sort()).toEqual(manifest.tables.map((t) => t.name).sort());
      expect(got).toEqual(snapshotRows);
      const snapshotSubmissions = defined(snapshotRows['submission'], 'submissions').length;
      expect(report.tables['submission']).toBe(snapshotSubmissions);
      // The source moved on during the backup; the restore is the snapshot, not the present.
      const present = await now.query<{ n: number }>('SELECT count(*)::int AS n FROM submission');
      expect(defined(present.rows[0], 'count').n).toBeGreaterThanOrEqual(snapshotSubmissions + 3);
      // Score columns byte for byte (float64 little-endian, ADR 0010).
      const columns = defined(got['score_column'], 'score columns');
      expect(columns.length).toBeGreaterThan(0);
      const before = defined(snapshotRows['score_column'], 'score columns in the snapshot');
      columns.forEach((c, i) => {
        const b = defined(before[i], 'the same column');
        expect(Buffer.compare(c['values'] as Buffer, b['values'] as Buffer)).toBe(0);
        expect(c['stats'] === null ? null : Buffer.compare(c['stats'] as Buffer, b['stats'] as Buffer)).toBe(b['stats'] === null ? null : 0);
      });
      const values = (columns.find((c) => c['metric'] === 'chrf')?.['values'] as Buffer | undefined) ?? Buffer.alloc(0);
      expect(values.readDoubleLE(0)).toBe(0.1 + 0.2);
      expect(Object.is(values.readDoubleLE(8), -0)).toBe(true);
      expect(values.readDoubleLE(16)).toBe(5e-324);
      // The queue is not in a backup: unscored submissions are named for requeueing.
      const queued = defined(snapshotRows['submission'], 'submissions').filter((s) => s['status'] === 'QUEUED' || s['status'] === 'SCORING').map((s) => s['id']);
      expect(queued.length).toBeGreaterThan(0);
      expect([...report.unfinishedSubmissions].sort()).toEqual([...queued].sort());
    } finally {
      await restored.end();
      await now.end();
    }
  });

  it('refuses a target that holds rows, and changes nothing there', async () => {
    const url = defined(target, 'the target').url;
    await expect(restoreBackup({ databaseUrl: url, file })).rejects.toThrow(/the target database is not empty \(rows in .*submission/);
    const c = new Client({ connectionString: url });
    await c.connect();
    const n = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM submission');
    await c.end();
    expect(defined(n.rows[0], 'count').n).toBe(manifest.tables.find((t) => t.name === 'submission')?.rows);
  });

  it('refuses a database without the migrations, naming what to do', async () => {
    const bare = await createDatabase(defined(second, 'the second server').url, 'podium_bare');
    try {
      await expect(restoreBackup({ databaseUrl: bare.url, file })).rejects.toThrow(/no Podium schema.*prisma migrate deploy/);
    } finally {
      await bare.drop();
    }
  });

  it('refuses a damaged file before it connects: truncated, altered rows, not a backup', async () => {
    const nowhere = 'postgresql://nobody:x@127.0.0.1:1/none'; // connecting would fail with ECONNREFUSED
    const whole = readFileSync(file);
    expect((await verifyBackup(file)).tables.map((t) => t.rows)).toEqual(manifest.tables.map((t) => t.rows));

    const truncated = path.join(dir, 'truncated.backup');
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
    await expect(restoreBackup({ databaseUrl: nowhere, file: truncated })).rejects.toThrow(/is truncated/);

    // The same rows with one character changed inside table submission, compressed again: only the checksum can tell.
    const text = gunzipSync(whole);
    const at = text.indexOf(Buffer.from('run 0'));
    expect(at).toBeGreaterThan(0);
    const altered = Buffer.from(text);
    altered.write('R', at, 'latin1');
    const alteredFile = path.join(dir, 'altered.backup');
    writeFileSync(alteredFile, gzipSync(altered));
    await expect(restoreBackup({ databaseUrl: nowhere, file: alteredFile })).rejects.toThrow(/is corrupt: the sha256 of table submission is [0-9a-f]{64}, its manifest says/);

    const foreign = path.join(dir, 'foreign.backup');
    writeFileSync(foreign, 'just text\n');
    await expect(restoreBackup({ databaseUrl: nowhere, file: foreign })).rejects.toThrow(/is corrupt .*not a gzip stream/);

    const cli = spawnSync(process.execPath, [compiledApp('apps/cli/src/main.ts'), 'admin', 'verify-backup', truncated], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toMatch(/^podium admin: .*truncated\.backup is truncated/);
  });
});
