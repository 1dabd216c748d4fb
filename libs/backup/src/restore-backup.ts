// `verifyBackup` reads a backup file whole (manifest, every table's length, row count and sha256)
// without a database; `restoreBackup` does that first, then loads the file into an empty database
// migrated to the same migrations, in one transaction, and checks what it loaded against the
// manifest before it commits.
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import {
  BACKUP_FORMAT_VERSION,
  BACKUP_MAGIC,
  BackupError,
  BackupManifestSchema,
  ByteReader,
  MAX_MANIFEST_BYTES,
  RowDigest,
  orderedSelect,
  quoteIdent,
  type BackupManifest,
  type BackupTable,
} from './backup-format';
import { MIGRATIONS_TABLE, readMigrations, readTables, type CatalogueTable } from './catalogue';
import { setTextSettings } from './write-backup';

/** The decompressed file as chunks; read errors and gzip errors surface from the iterator. */
function openFile(file: string): { reader: ByteReader; close: () => void } {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  pipeline(source, gunzip).catch(() => undefined); // errors reach the iterator through gunzip
  return { reader: new ByteReader(gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>), close: () => gunzip.destroy() };
}

/** Turns low-level read errors into what they mean for the file. */
function explain(file: string, where: string, e: unknown): Error {
  if (e instanceof BackupError) return new BackupError(`${file}: ${where}: ${e.message}`);
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOENT') return new BackupError(`${file} does not exist`);
  if (err.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(err.message)) return new BackupError(`${file} is truncated: the compressed data ends inside ${where}`);
  if (err.code === 'Z_DATA_ERROR' || err.code?.startsWith('Z_')) return new BackupError(`${file} is corrupt (${where}: ${err.message}); it is not a gzip stream Podium wrote, or it was damaged`);
  return e instanceof Error ? e : new Error(String(e));
}

async function readManifest(file: string, reader: ByteReader): Promise<BackupManifest> {
  const first = await reader.readLine(128);
  const expected = `${BACKUP_MAGIC} ${BACKUP_FORMAT_VERSION}`;
  if (first === null || !first.startsWith(`${BACKUP_MAGIC} `)) throw new BackupError(`${file} is not a Podium backup (it does not begin with '${BACKUP_MAGIC}')`);
  if (first !== expected) throw new BackupError(`${file} is a Podium backup of format '${first.slice(BACKUP_MAGIC.length + 1)}'; this Podium reads format ${BACKUP_FORMAT_VERSION}`);
  const line = await reader.readLine(MAX_MANIFEST_BYTES);
  if (line === null) throw new BackupError(`${file} is truncated: it ends before its manifest`);
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new BackupError(`${file}: the manifest is not valid JSON (the file is damaged)`);
  }
  const parsed = BackupManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(`${file}: the manifest is invalid at ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'unknown problem'}`);
  }
  const names = new Set<string>();
  for (const t of parsed.data.tables) {
    if (names.has(t.name)) throw new BackupError(`${file}: the manifest lists table ${t.name} twice`);
    names.add(t.name);
  }
  return parsed.data;
}

/** Reads one table's bytes, handing them to `sink`, and checks them against the manifest. */
async function readTable(file: string, reader: ByteReader, table: BackupTable, sink: (chunk: Buffer) => void | Promise<void>): Promise<void> {
  const digest = new RowDigest();
  let got: number;
  try {
    got = await reader.readExact(table.bytes, async (chunk) => {
      digest.add(chunk);
      await sink(chunk);
    });
  } catch (e) {
    throw explain(file, `table ${table.name}`, e);
  }
  if (got < table.bytes) throw new BackupError(`${file} is truncated: table ${table.name} has ${got} of its ${table.bytes} bytes`);
  if (digest.rows !== table.rows) throw new BackupError(`${file} is corrupt: table ${table.name} holds ${digest.rows} rows, its manifest says ${table.rows}`);
  const sha = digest.digest();
  if (sha !== table.sha256) throw new BackupError(`${file} is corrupt: the sha256 of table ${table.name} is ${sha}, its manifest says ${table.sha256}`);
}

/** Reads the whole file and checks it; answers its manifest. Touches no database. */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  const { reader, close } = openFile(file);
  try {
    let manifest: BackupManifest;
    try {
      manifest = await readManifest(file, reader);
    } catch (e) {
      throw explain(file, 'the header', e);
    }
    for (const t of manifest.tables) await readTable(file, reader, t, () => undefined);
    let end: boolean;
    try {
      end = await reader.atEnd();
    } catch (e) {
      throw explain(file, 'the end of the file', e);
    }
    if (!end) throw new BackupError(`${file} is corrupt: bytes follow the last table its manifest lists`);
    return manifest;
  } finally {
    close();
  }
}

export interface RestoreBackupOptions {
  databaseUrl: string;
  file: string;
}

export interface RestoreBackupResult {
  file: string;
  podiumVersion: string;
  createdAt: string;
  tables: { name: string; rows: number }[];
  sequences: number;
  /** Submissions QUEUED or SCORING in the backup: the queue is not in it, so they wait for `podium admin requeue`. */
  unfinishedSubmissions: string[];
}

function describeMigrations(list: readonly { name: string }[]): string {
  return list.length === 0 ? 'none' : `${list.length}, the last ${list[list.length - 1]?.name ?? ''}`;
}

/** Refuses a target that is not an empty database at the backup's migrations and tables. */
async function checkTarget(client: Client, manifest: BackupManifest, target: CatalogueTable[]): Promise<void> {
  const migrations = await readMigrations(client);
  if (migrations === null) {
    throw new BackupError(
      `the target database has no Podium schema (no ${MIGRATIONS_TABLE} table). Apply the migrations of Podium ${manifest.podiumVersion} first ` +
        `(DATABASE_URL=… npx prisma migrate deploy), then restore`,
    );
  }
  const have = new Map(migrations.map((m) => [m.name, m.checksum]));
  const want = new Map(manifest.migrations.map((m) => [m.name, m.checksum]));
  const missing = [...want.keys()].filter((n) => !have.has(n));
  const extra = [...have.keys()].filter((n) => !want.has(n));
  const changed = [...want.keys()].filter((n) => have.has(n) && have.get(n) !== want.get(n));
  if (missing.length || extra.length || changed.length) {
    const parts = [
      missing.length ? `missing ${missing.join(', ')}` : '',
      extra.length ? `not in the backup ${extra.join(', ')}` : '',
      changed.length ? `with other contents ${changed.join(', ')}` : '',
    ].filter(Boolean);
    throw new BackupError(
      `the target database's migrations (${describeMigrations(migrations)}) are not the backup's (${describeMigrations(manifest.migrations)}): ${parts.join('; ')}. ` +
        `Restore into a database migrated by the Podium version that made the backup (${manifest.podiumVersion}), then upgrade it as usual`,
    );
  }
  const byName = new Map(target.map((t) => [t.name, t]));
  for (const t of manifest.tables) {
    const there = byName.get(t.name);
    if (!there) throw new BackupError(`the target database has no table ${t.name}`);
    const theirs = there.columns.map((c) => `${c.name} ${c.type}`).sort().join(', ');
    const ours = t.columns.map((c) => `${c.name} ${c.type}`).sort().join(', ');
    if (theirs !== ours) throw new BackupError(`table ${t.name} has other columns in the target (${theirs}) than in the backup (${ours})`);
  }
  const unlisted = target.filter((t) => !manifest.tables.some((m) => m.name === t.name));
  if (unlisted.length) throw new BackupError(`the target database has tables the backup does not know: ${unlisted.map((t) => t.name).join(', ')}`);
  const occupied: string[] = [];
  for (const t of manifest.tables) {
    const r = await client.query<{ some: boolean }>(`SELECT EXISTS (SELECT 1 FROM public.${quoteIdent(t.name)}) AS some`);
    if (r.rows[0]?.some) occupied.push(t.name);
  }
  if (occupied.length) {
    throw new BackupError(
      `the target database is not empty (rows in ${occupied.join(', ')}); a restore never mixes with or replaces data. ` +
        `Create a new database, apply the migrations, and restore into it`,
    );
  }
  // The file's order must load every referenced table first.
  const loaded = new Set<string>();
  for (const t of manifest.tables) {
    const needs = [...(byName.get(t.name)?.references ?? [])].filter((r) => !loaded.has(r));
    if (needs.length) throw new BackupError(`the backup stores table ${t.name} before ${needs.join(', ')}, which it references`);
    loaded.add(t.name);
  }
}

export async function restoreBackup(options: RestoreBackupOptions): Promise<RestoreBackupResult> {
  const { databaseUrl, file } = options;
  const manifest = await verifyBackup(file);
  const client = new Client({ connectionString: databaseUrl, application_name: 'podium-restore' });
  await client.connect();
  const { reader, close } = openFile(file);
  try {
    await setTextSettings(client);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    const target = await readTables(client);
    // Nobody else writes to these tables until the restore commits or rolls back.
    for (const t of target) await client.query(`LOCK TABLE public.${quoteIdent(t.name)} IN ACCESS EXCLUSIVE MODE`);
    await checkTarget(client, manifest, target);
    await readManifest(file, reader);
    for (const t of manifest.tables) {
      const copy = client.query(copyFrom(`COPY public.${quoteIdent(t.name)} (${t.columns.map((c) => quoteIdent(c.name)).join(', ')}) FROM STDIN`));
      const finished = once(copy, 'finish');
      const failed = new Promise<never>((_, reject) => copy.once('error', reject));
      failed.catch(() => undefined);
      await Promise.race([
        readTable(file, reader, t, async (chunk) => {
          if (!copy.write(chunk)) await Promise.race([once(copy, 'drain'), failed]);
        }),
        failed,
      ]);
      copy.end();
      await Promise.race([finished, failed]);
    }
    // What was loaded, read back as the backup read it: same rows, same bytes.
    const byName = new Map(target.map((t) => [t.name, t]));
    for (const t of manifest.tables) {
      const digest = new RowDigest();
      await pipeline(client.query(copyTo(`COPY (${orderedSelect(t, byName.get(t.name)?.collatable ?? new Set())}) TO STDOUT`)), digest, new Writable({ write: (_chunk, _enc, done) => done() }));
      const sha = digest.digest();
      if (digest.rows !== t.rows || sha !== t.sha256) {
        throw new BackupError(`table ${t.name} reads back as ${digest.rows} rows (sha256 ${sha}) after loading ${t.rows} (sha256 ${t.sha256}); nothing was restored`);
      }
    }
    for (const s of manifest.sequences) await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [`public.${quoteIdent(s.name)}`, s.lastValue, s.isCalled]);
    const unfinished = byName.has('submission')
      ? (await client.query<{ id: string }>(`SELECT id::text AS id FROM public.submission WHERE status::text IN ('QUEUED', 'SCORING') ORDER BY created_at`)).rows.map((r) => r.id)
      : [];
    await client.query('COMMIT');
    return {
      file,
      podiumVersion: manifest.podiumVersion,
      createdAt: manifest.createdAt,
      tables: manifest.tables.map((t) => ({ name: t.name, rows: t.rows })),
      sequences: manifest.sequences.length,
      unfinishedSubmissions: unfinished,
    };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    close();
    await client.end();
  }
}
