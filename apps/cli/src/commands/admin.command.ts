import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CliError } from '../cli-error';
import type { CliCommand } from '../command';
import { parseFlags, parseFlagsAndPositionals } from '../flags';

const USAGE = `usage: podium admin requeue --url URL [--token TOKEN] (--submission ID | --stuck)
       podium admin backup --out FILE [--database-url URL]
       podium admin restore FILE [--database-url URL]
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
  verify-backup FILE        checks FILE whole (manifest, lengths, rows, sha256); no database
Prints a JSON summary.`;

type Fetch = typeof fetch;

/** Where `npm run up` starts its embedded PostgreSQL (scripts/up.mjs, port 54329). */
export const DEV_DATABASE_URL = 'postgresql://podium:podium@127.0.0.1:54329/podium';

/** The repository's package.json: dist/apps/cli/commands and apps/cli/src/commands are both four levels down. */
function podiumVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
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

/** backup / restore / verify-backup: straight to PostgreSQL with the operator's credentials. */
async function databaseAction(action: 'backup' | 'restore' | 'verify-backup', argv: string[], env: NodeJS.ProcessEnv): Promise<unknown> {
  const { values, positionals } = parseFlagsAndPositionals(argv, { out: { type: 'string' }, 'database-url': { type: 'string' } });
  const databaseUrl = values['database-url'] ?? env['DATABASE_URL'] ?? DEV_DATABASE_URL;
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
