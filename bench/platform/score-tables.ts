/**
 * Which tables store scores, and how big they are. The one place that knows the names: today
 * `instance_score` + `corpus_score` (one row per score), and the names a columnar layout is likely
 * to use; any other table whose name contains "score" counts too (except those that hold no metric
 * scores), so a new layout is measured without editing this file. The bench prints what it measured.
 */
import type { Client } from 'pg';

/** Tables known to store metric scores, today's and likely successors. */
export const SCORE_TABLES = [
  'instance_score',
  'corpus_score',
  'score_history',
  'submission_score',
  'submission_scores',
  'submission_metric_score',
  'metric_score',
  'metric_scores',
  'score_column',
  'score_columns',
  'score_vector',
  'score_array',
  'score_set',
  'scores',
];
/** Tables whose name matches but that hold no metric scores (a stored "scoreboard" is a leaderboard). */
export const NOT_SCORE_TABLES = ['human_score'];
const NOT_SCORE_PATTERN = '%board%';
/** Scratch tables of the bench itself (the old layout, for the ratio). */
export const SCRATCH_PREFIX = 'bench_';

export interface TableSize {
  table: string;
  bytes: number;
}

/** Every score table present in the public schema with pg_total_relation_size (heap, TOAST, indexes). */
export async function scoreTableSizes(pg: Client): Promise<TableSize[]> {
  const { rows } = await pg.query<{ table: string; bytes: string }>(
    `SELECT c.relname AS table, pg_total_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
        AND (c.relname = ANY($1::text[]) OR c.relname LIKE '%score%')
        AND NOT c.relname = ANY($2::text[]) AND c.relname NOT LIKE $3 AND c.relname NOT LIKE $4
      ORDER BY c.relname`,
    [SCORE_TABLES, NOT_SCORE_TABLES, `${SCRATCH_PREFIX}%`, NOT_SCORE_PATTERN],
  );
  return rows.map((r) => ({ table: r.table, bytes: Number(r.bytes) }));
}

export const totalBytes = (sizes: TableSize[]) => sizes.reduce((a, s) => a + s.bytes, 0);

/**
 * Per submission, when the transaction that stored its scores committed
 * (pg_xact_commit_timestamp of the rows' xmin; needs track_commit_timestamp = on). Reads the
 * smallest score table with a `submission_id` column that holds rows of every submission.
 */
export async function scoreCommitTimes(pg: Client, submissionIds: string[]): Promise<{ table: string; committed: Map<string, Date> } | null> {
  const sizes = await scoreTableSizes(pg);
  const { rows: withColumn } = await pg.query<{ table: string }>(
    `SELECT table_name AS table FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'submission_id' AND table_name = ANY($1::text[])`,
    [sizes.map((s) => s.table)],
  );
  const candidates = sizes.filter((s) => withColumn.some((c) => c.table === s.table)).sort((a, b) => a.bytes - b.bytes);
  for (const { table } of candidates) {
    try {
      const { rows } = await pg.query<{ id: string; committed: Date | null }>(
        `SELECT submission_id::text AS id, max(pg_xact_commit_timestamp(xmin)) AS committed FROM "${table}" WHERE submission_id = ANY($1::uuid[]) GROUP BY 1`,
        [submissionIds],
      );
      const committed = new Map(rows.flatMap((r) => (r.committed ? [[r.id, r.committed] as const] : [])));
      if (committed.size === submissionIds.length) return { table, committed };
    } catch {
      // no commit timestamps (track_commit_timestamp off) or an unexpected column type
      return null;
    }
  }
  return null;
}
