// `writeBackup`: every table of schema `public` read in one REPEATABLE READ snapshot, as COPY text,
// into a gzip file with a manifest. Tables stream through a spool file beside the output (the
// manifest, which goes first, holds their checksums), so memory stays flat however big they are.
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { BACKUP_FORMAT_VERSION, BACKUP_MAGIC, BackupError, RowDigest, TEXT_SETTINGS, orderedSelect, quoteIdent, type BackupManifest } from './backup-format';
import { readMigrations, readSequences, readTables } from './catalogue';

export interface WriteBackupOptions {
  databaseUrl: string;
  /** The file to create; refused when it exists. */
  out: string;
  /** Recorded in the manifest. */
  podiumVersion: string;
  /**
   * Called with the transaction's exported snapshot (pg_export_snapshot) before any table is read:
   * another session may `SET TRANSACTION SNAPSHOT` to it and see exactly what the backup holds.
   * The backup waits for it.
   */
  onSnapshot?: (snapshotId: string) => Promise<void>;
}

export interface WriteBackupResult {
  file: string;
  manifest: BackupManifest;
  /** Size of the file written. */
  fileBytes: number;
}

export async function setTextSettings(client: Client): Promise<void> {
  for (const [key, value] of Object.entries(TEXT_SETTINGS)) await client.query(`SELECT set_config($1, $2, false)`, [key, value]);
}

export async function writeBackup(options: WriteBackupOptions): Promise<WriteBackupResult> {
  const { databaseUrl, out, podiumVersion } = options;
  if (existsSync(out)) throw new BackupError(`${out} exists; a backup never overwrites a file (choose a new name)`);
  const spool = `${out}.spool-${process.pid}`;
  const partial = `${out}.partial-${process.pid}`;
  const client = new Client({ connectionString: databaseUrl, application_name: 'podium-backup' });
  await client.connect();
  try {
    await setTextSettings(client);
    // pg_dump's choice: one snapshot for every table, read only; shared locks keep a migration
    // from changing a table under the backup while it runs (writers are not blocked).
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const tables = await readTables(client);
    for (const t of tables) await client.query(`LOCK TABLE public.${quoteIdent(t.name)} IN ACCESS SHARE MODE`);
    const head = await client.query<{ snapshot: string; server: string; database: string; exported: string }>(
      `SELECT pg_current_snapshot()::text AS snapshot, current_setting('server_version') AS server, current_database() AS database, pg_export_snapshot() AS exported`,
    );
    const info = head.rows[0];
    if (!info) throw new Error('the server answered no snapshot');
    if (options.onSnapshot) await options.onSnapshot(info.exported);
    const migrations = (await readMigrations(client)) ?? [];
    const sequences = await readSequences(client);
    const spoolFile = createWriteStream(spool);
    const entries: BackupManifest['tables'] = [];
    try {
      for (const t of tables) {
        const digest = new RowDigest();
        const copy = client.query(copyTo(`COPY (${orderedSelect(t, t.collatable)}) TO STDOUT`));
        await pipeline(copy, digest, createGzip(), async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) if (!spoolFile.write(chunk)) await once(spoolFile, 'drain');
        });
        entries.push({ name: t.name, columns: t.columns, orderBy: t.orderBy, rows: digest.rows, bytes: digest.bytes, sha256: digest.digest() });
      }
    } finally {
      spoolFile.end();
      await once(spoolFile, 'close');
    }
    await client.query('COMMIT');
    const manifest: BackupManifest = {
      format: BACKUP_MAGIC,
      formatVersion: BACKUP_FORMAT_VERSION,
      podiumVersion,
      createdAt: new Date().toISOString(),
      server: info.server,
      database: info.database,
      snapshot: info.snapshot,
      settings: { ...TEXT_SETTINGS },
      migrations,
      tables: entries,
      sequences,
    };
    const file = createWriteStream(partial, { flags: 'wx' });
    file.write(gzipSync(`${BACKUP_MAGIC} ${BACKUP_FORMAT_VERSION}\n${JSON.stringify(manifest)}\n`));
    await pipeline(createReadStream(spool), file);
    renameSync(partial, out);
    return { file: out, manifest, fileBytes: file.bytesWritten };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    rmSync(partial, { force: true });
    throw e;
  } finally {
    rmSync(spool, { force: true });
    await client.end();
  }
}
