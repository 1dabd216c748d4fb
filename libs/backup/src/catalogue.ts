// What the database says it holds (schema `public`): tables, their columns and keys, the foreign
// keys between them, sequences and Prisma's migration list. Backups and restores read the
// catalogue rather than a hand list, so that a table a migration adds is never forgotten.
import type { ClientBase } from 'pg';
import { BackupError, quoteIdent, type BackupMigration } from './backup-format';

/** Prisma's own bookkeeping: compared between backup and target, never copied. */
export const MIGRATIONS_TABLE = '_prisma_migrations';

export interface CatalogueTable {
  name: string;
  /** Stored columns in attribute order (generated columns are computed again, so left out). */
  columns: { name: string; type: string }[];
  /** Primary key columns in key order; empty when there is none. */
  orderBy: string[];
  /** Columns with a collation (text-like): ordered under "C" so that every server sorts alike. */
  collatable: Set<string>;
  /** Tables this one references by foreign key (itself excluded). */
  references: Set<string>;
}

export async function readTables(client: ClientBase): Promise<CatalogueTable[]> {
  const tables = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> $1
     ORDER BY c.relname`,
    [MIGRATIONS_TABLE],
  );
  const columns = await client.query<{ table: string; name: string; type: string; collatable: boolean }>(
    `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attcollation <> 0 AS collatable
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY c.relname, a.attnum`,
  );
  const keys = await client.query<{ table: string; name: string }>(
    `SELECT c.relname AS table, a.attname AS name
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
     CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum
     WHERE k.contype = 'p' AND c.relnamespace = 'public'::regnamespace
     ORDER BY c.relname, u.ord`,
  );
  const foreign = await client.query<{ table: string; target: string }>(
    `SELECT DISTINCT c.relname AS table, r.relname AS target
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
     WHERE k.contype = 'f' AND c.relnamespace = 'public'::regnamespace AND r.relnamespace = 'public'::regnamespace AND c.oid <> r.oid`,
  );
  const byName = new Map<string, CatalogueTable>(tables.rows.map((t) => [t.name, { name: t.name, columns: [], orderBy: [], collatable: new Set(), references: new Set() }]));
  for (const c of columns.rows) {
    const t = byName.get(c.table);
    if (!t) continue;
    t.columns.push({ name: c.name, type: c.type });
    if (c.collatable) t.collatable.add(c.name);
  }
  for (const k of keys.rows) byName.get(k.table)?.orderBy.push(k.name);
  for (const f of foreign.rows) byName.get(f.table)?.references.add(f.target);
  return dependencyOrder([...byName.values()]);
}

/**
 * Tables so that each comes after the tables it references (ties by name, for a stable file).
 * A cycle of foreign keys between tables has no such order: refused, naming the tables.
 */
export function dependencyOrder<T extends { name: string; references: ReadonlySet<string> }>(tables: T[]): T[] {
  const remaining = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const ordered: T[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining.values()].filter((t) => [...t.references].every((r) => done.has(r) || !remaining.has(r))).sort((a, b) => (a.name < b.name ? -1 : 1));
    if (ready.length === 0) throw new BackupError(`the foreign keys between tables ${[...remaining.keys()].sort().join(', ')} form a cycle; no load order satisfies them`);
    for (const t of ready) {
      ordered.push(t);
      done.add(t.name);
      remaining.delete(t.name);
    }
  }
  return ordered;
}

export async function readSequences(client: ClientBase): Promise<{ name: string; lastValue: string; isCalled: boolean }[]> {
  const seqs = await client.query<{ name: string }>(`SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'S' ORDER BY c.relname`);
  const out: { name: string; lastValue: string; isCalled: boolean }[] = [];
  for (const s of seqs.rows) {
    const r = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text AS last_value, is_called FROM public.${quoteIdent(s.name)}`);
    const row = r.rows[0];
    if (row) out.push({ name: s.name, lastValue: row.last_value, isCalled: row.is_called });
  }
  return out;
}

/** Applied migrations by name, or null when the database has no `_prisma_migrations` table. */
export async function readMigrations(client: ClientBase): Promise<BackupMigration[] | null> {
  const exists = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [`public.${MIGRATIONS_TABLE}`]);
  if (!exists.rows[0]?.present) return null;
  const r = await client.query<{ name: string; checksum: string }>(
    `SELECT migration_name AS name, checksum FROM public.${MIGRATIONS_TABLE} WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return r.rows;
}
