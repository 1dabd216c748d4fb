// The backup file: gzip data (one gzip member for the header, then one per table, so `zcat FILE`
// reads it whole) holding
//   line 1  `PODIUM-BACKUP 1`
//   line 2  the manifest, one line of JSON (BackupManifest)
//   then    each table's rows in manifest order, exactly `bytes` bytes each, in PostgreSQL's COPY
//           text format (one row per line, tab-separated, `\N` for NULL, bytea as \x hex).
// Nothing follows the last table. See docs/adr/0018-backups-without-pg-dump.md.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { z } from 'zod';

export const BACKUP_MAGIC = 'PODIUM-BACKUP';
export const BACKUP_FORMAT_VERSION = 1;
/** A manifest line longer than this is not one (a damaged or foreign file). */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/**
 * Session settings under which rows are written and read back, so that the COPY text (and so
 * its checksum) does not depend on the server's or the role's defaults: timestamps in UTC ISO,
 * floats in their shortest exact form, bytea as hex.
 */
export const TEXT_SETTINGS: Readonly<Record<string, string>> = {
  client_encoding: 'UTF8',
  DateStyle: 'ISO, YMD',
  IntervalStyle: 'postgres',
  TimeZone: 'UTC',
  extra_float_digits: '3',
  bytea_output: 'hex',
};

const ColumnSchema = z.object({ name: z.string().min(1), type: z.string().min(1) });
const TableSchema = z.object({
  name: z.string().min(1),
  columns: z.array(ColumnSchema).min(1),
  /** Columns the rows are ordered by (the primary key), empty when the table has none (then: the whole row as text). */
  orderBy: z.array(z.string().min(1)),
  rows: z.number().int().nonnegative(),
  /** Length of the table's COPY text in the file, uncompressed. */
  bytes: z.number().int().nonnegative(),
  /** sha256 (hex) of those bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
const SequenceSchema = z.object({ name: z.string().min(1), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() });
const MigrationSchema = z.object({ name: z.string().min(1), checksum: z.string() });

export const BackupManifestSchema = z.object({
  format: z.literal(BACKUP_MAGIC),
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  podiumVersion: z.string(),
  createdAt: z.string(),
  server: z.string(),
  database: z.string(),
  /** pg_current_snapshot() of the transaction that read every table. */
  snapshot: z.string(),
  settings: z.record(z.string(), z.string()),
  /** Prisma's applied migrations (`_prisma_migrations`, finished and not rolled back), by name. */
  migrations: z.array(MigrationSchema),
  /** In the order they are stored and restored: a table comes after the tables it references. */
  tables: z.array(TableSchema),
  sequences: z.array(SequenceSchema),
});
export type BackupManifest = z.infer<typeof BackupManifestSchema>;
export type BackupTable = z.infer<typeof TableSchema>;
export type BackupSequence = z.infer<typeof SequenceSchema>;
export type BackupMigration = z.infer<typeof MigrationSchema>;

/** A problem with a backup file or a target database, stated for the operator. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Passes bytes through while counting them, their rows (newlines) and hashing them. */
export class RowDigest extends Transform {
  bytes = 0;
  rows = 0;
  private readonly hash: Hash = createHash('sha256');

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.add(chunk);
    done(null, chunk);
  }

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    // COPY text escapes newlines inside values (\n), so every 0x0A ends a row.
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) this.rows++;
    this.hash.update(chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** Reads lines and exact byte counts from an async stream of chunks (the decompressed file). */
export class ByteReader {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  private async fill(): Promise<boolean> {
    while (this.pending.length === 0) {
      const next = await this.chunks.next();
      if (next.done) return false;
      this.pending = next.value;
    }
    return true;
  }

  /** The next line without its newline; null at the end; throws past `max` bytes. */
  async readLine(max: number): Promise<string | null> {
    const parts: Buffer[] = [];
    let length = 0;
    for (;;) {
      if (!(await this.fill())) return length === 0 ? null : Buffer.concat(parts).toString('utf8');
      const nl = this.pending.indexOf(10);
      if (nl >= 0) {
        parts.push(this.pending.subarray(0, nl));
        this.pending = this.pending.subarray(nl + 1);
        return Buffer.concat(parts).toString('utf8');
      }
      parts.push(this.pending);
      length += this.pending.length;
      this.pending = Buffer.alloc(0);
      if (length > max) throw new BackupError(`a header line is longer than ${max} bytes`);
    }
  }

  /** Hands the next `n` bytes to `sink` chunk by chunk; answers how many there were (fewer at the end). */
  async readExact(n: number, sink: (chunk: Buffer) => void | Promise<void>): Promise<number> {
    let left = n;
    while (left > 0 && (await this.fill())) {
      const part = this.pending.subarray(0, Math.min(left, this.pending.length));
      this.pending = this.pending.subarray(part.length);
      left -= part.length;
      await sink(part);
    }
    return n - left;
  }

  async atEnd(): Promise<boolean> {
    return !(await this.fill());
  }
}

/** `"name"`: an identifier quoted for SQL. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The query whose COPY text a table's checksum covers: its columns, in key order (collation "C", the same on every server). */
export function orderedSelect(table: { name: string; columns: readonly { name: string }[]; orderBy: readonly string[] }, collatable: ReadonlySet<string>): string {
  const cols = table.columns.map((c) => quoteIdent(c.name)).join(', ');
  const order =
    table.orderBy.length > 0
      ? table.orderBy.map((c) => `${quoteIdent(c)}${collatable.has(c) ? ' COLLATE "C"' : ''}`).join(', ')
      : `ROW(${cols})::text COLLATE "C"`;
  return `SELECT ${cols} FROM public.${quoteIdent(table.name)} ORDER BY ${order}`;
}
