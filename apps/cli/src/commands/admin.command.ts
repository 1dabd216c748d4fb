import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CliError } from '../cli-error';
import type { CliCommand } from '../command';
import { parseFlags, parseFlagsAndPositionals } from '../flags';

const USAGE = `usage: podium admin requeue --url URL [--token TOKEN] (--submission ID | --stuck)
       podium admin backup --out FILE [--database-url URL]
       podium admin restore FILE [--database-url URL] [--create-database]
       podium admin verify-backup FILE

requeue talks to a running Podium API. Organisers only.
  requeue --submission ID   queue one submission for scoring again
  requeue --stuck           queue every submission stuck in SCORING (no live worker lease)
  --url URL                 the API, e.g. http://127.0.0.1:3000
  --token TOKEN             an organiser's API token (default: $PODIUM_TOKEN)
Prints {"requeued": [ids]}.

backup, restore and verify-backup are for the operator, who holds the database's credentials
(no API route does this). The database: --database-url, else $DATABASE_URL, else the embedded
PostgreSQL of \`npm run up\` (postgresql://podium:***@127.0.0.1:54329/podium).
  backup --out FILE         every table of the database in one consistent snapshot (REPEATABLE
                            READ), gzip-compressed, with a manifest (Podium version, migrations,
                            per table: columns, rows, sha256); never overwrites FILE
  restore FILE              checks FILE whole, then loads it in one transaction into an EMPTY
                            database migrated to the backup's migrations (\`npx prisma migrate
                            deploy\` of the Podium version that made it), checks every table's
                            rows and sha256, and commits; refuses a database that holds rows
  --create-database         (restore) first create the database the URL names (it must not
                            exist) and apply this checkout's migrations to it, when they are
                            exactly the backup's
  verify-backup FILE        checks FILE whole (manifest, lengths, rows, sha256); no database
Prints a JSON summary.`;

type Fetch = typeof fetch;

/** Where `npm run up` starts its embedded PostgreSQL (scripts/up.mjs, port 54329). */
export const DEV_DATABASE_URL = 'postgresql://podium:podium@127.0.0.1:54329/podium';

/** The repository root: dist/apps/cli/commands and apps/cli/src/commands are both four levels down. */
const REPO_ROOT = path.join(__dirname, '..', '..', '..', '..');

function podiumVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The URL with its password hidden, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid database URL>';
  }
}

/**
 * `restore --create-database`: creates the database `url` names on its server and applies this
 * checkout's migrations (`prisma migrate deploy`), refused unless they are the backup's own
 * (names and sha256, which is Prisma's checksum): a newer checkout's migrations would never run
 * on the restored rows.
 */
async function createAndMigrate(url: string, wanted: readonly { name: string; checksum: string }[], version: string): Promise<void> {
  const dir = path.join(REPO_ROOT, 'prisma', 'migrations');
  const here = existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => existsSync(path.join(dir, n, 'migration.sql')))
        .sort()
        .map((name) => ({ name, checksum: createHash('sha256').update(readFileSync(path.join(dir, name, 'migration.sql'))).digest('hex') }))
    : [];
  const key = (l: readonly { name: string; checksum: string }[]) => l.map((m) => `${m.name}:${m.checksum}`).join('\n');
  if (key(here) !== key(wanted)) {
    throw new CliError(`this checkout's migrations (${here.length}) are not the backup's (${wanted.length}); restore with Podium ${version}, or create and migrate the database yourself`);
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new CliError('--create-database needs a database name in the URL');
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (e) {
    throw new CliError(`cannot create database ${name}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await admin.end();
  }
  const prisma = path.join(REPO_ROOT, 'node_modules', '.bin', 'prisma');
  const r = spawnSync(prisma, ['migrate', 'deploy'], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' });
  if (r.status !== 0) throw new CliError(`prisma migrate deploy failed on the new database ${name}: ${(r.stderr || r.stdout || String(r.error)).trim()}`);
}

/** backup / restore / verify-backup: straight to PostgreSQL with the operator's credentials. */
async function databaseAction(action: 'backup' | 'restore' | 'verify-backup', argv: string[], env: NodeJS.ProcessEnv): Promise<unknown> {
  const { values, positionals } = parseFlagsAndPositionals(argv, { out: { type: 'string' }, 'database-url': { type: 'string' }, 'create-database': { type: 'boolean' } });
  const databaseUrl = values['database-url'] ?? env['DATABASE_URL'] ?? DEV_DATABASE_URL;
  if (values['create-database'] && action !== 'restore') throw new CliError('--create-database is for restore');
  const backup = await import('@podium/backup');
  const started = Date.now();
  try {
    if (action === 'backup') {
      if (!values.out) throw new CliError('--out FILE is required');
      if (positionals.length) throw new CliError(`unexpected argument '${positionals[0] ?? ''}'`);
      const r = await backup.writeBackup({ databaseUrl, out: values.out, podiumVersion: podiumVersion() });
      return {
        backup: r.file,
        bytes: r.fileBytes,
        seconds: (Date.now() - started) / 1000,
        migrations: r.manifest.migrations.length,
        tables: Object.fromEntries(r.manifest.tables.map((t) => [t.name, t.rows])),
        sequences: r.manifest.sequences.length,
      };
    }
    const [file, ...more] = positionals;
    if (!file || more.length) throw new CliError(`give exactly one backup FILE`);
    if (values.out) throw new CliError(`--out is for backup`);
    if (action === 'verify-backup') {
      const m = await backup.verifyBackup(file);
      return { verified: file, podiumVersion: m.podiumVersion, createdAt: m.createdAt, migrations: m.migrations.length, tables: Object.fromEntries(m.tables.map((t) => [t.name, t.rows])) };
    }
    if (values['create-database']) {
      const m = await backup.verifyBackup(file);
      await createAndMigrate(databaseUrl, m.migrations, m.podiumVersion);
    }
    const r = await backup.restoreBackup({ databaseUrl, file });
    return {
      restored: r.file,
      seconds: (Date.now() - started) / 1000,
      podiumVersion: r.podiumVersion,
      createdAt: r.createdAt,
      tables: Object.fromEntries(r.tables.map((t) => [t.name, t.rows])),
      sequences: r.sequences,
      unfinishedSubmissions: r.unfinishedSubmissions,
      ...(r.unfinishedSubmissions.length
        ? { next: 'the scoring queue is not in a backup: once the api runs, queue these again with `podium admin requeue --submission ID` (QUEUED) or `--stuck` (SCORING)' }
        : {}),
    };
  } catch (e) {
    if (e instanceof backup.BackupError) throw new CliError(e.message);
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === '28P01' || err.code === '3D000') {
      throw new CliError(`cannot use the database at ${redact(databaseUrl)}: ${err.message}`);
    }
    throw e;
  }
}

/** `podium admin requeue`: the requeueSubmissions mutation through the API, with a token. */
export function adminCommandWith(fetchImpl: Fetch, env: NodeJS.ProcessEnv = process.env): CliCommand {
  return {
    name: 'admin',
    summary: 'requeue submissions through the API; back up, restore and verify the database (operator)',
    usage: USAGE,
    async run(argv) {
      const [action, ...rest] = argv;
      if (action === 'backup' || action === 'restore' || action === 'verify-backup') return databaseAction(action, rest, env);
      if (action !== 'requeue') throw new CliError(`unknown admin action '${action ?? ''}' (expected: requeue, backup, restore, verify-backup)`);
      const flags = parseFlags(rest, { url: { type: 'string' }, token: { type: 'string' }, submission: { type: 'string' }, stuck: { type: 'boolean' } });
      const url = flags.url;
      const token = flags.token ?? env['PODIUM_TOKEN'];
      if (!url) throw new CliError('--url is required');
      if (!token) throw new CliError('--token (or PODIUM_TOKEN) is required');
      if (!!flags.submission === !!flags.stuck) throw new CliError('give exactly one of --submission ID and --stuck');
      let res: Response;
      try {
        res = await fetchImpl(`${url.replace(/\/+$/, '')}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            query: 'mutation($id: ID, $stuck: Boolean) { requeueSubmissions(submissionId: $id, stuck: $stuck) }',
            variables: flags.submission ? { id: flags.submission } : { stuck: true },
          }),
        });
      } catch (e) {
        throw new CliError(`cannot reach ${url}: ${e instanceof Error ? e.message : String(e)}`);
      }
      const body = (await res.json().catch(() => null)) as { data?: { requeueSubmissions?: string[] }; errors?: { message: string }[] } | null;
      if (body?.errors?.length) throw new CliError(body.errors.map((e) => e.message).join('; '));
      if (!res.ok || !body?.data?.requeueSubmissions) throw new CliError(`the API answered ${res.status}`);
      return { requeued: body.data.requeueSubmissions };
    },
  };
}

export const adminCommand = adminCommandWith((...args) => fetch(...args));
