// Reading and writing a submission's outputs, stored one row per submission
// (`submission_output`, docs/adr/0037-outputs-one-row-per-submission.md): `texts[p + 1]` is the
// output for the instance at position p of the row's test set; a null element means none.
import { InvalidInputError } from '@podium/domain';
import type { Db, Tx } from './client';

/** One submission's stored outputs: `texts[p]` for position p (null: no output there). */
export interface StoredOutputs {
  testSetId: string;
  texts: (string | null)[];
}

/** Positions per JSON text a read returns (a row of about half a MB at most for typical outputs). */
const READ_CHUNK = 5_000;

/**
 * The outputs of the given submissions, in position order. One query: the array is unnested
 * once (a value is detoasted once per query, whatever the number of chunks) and comes back as
 * one JSON text per {@link READ_CHUNK} positions, parsed by JSON.parse. Submissions without a
 * row (or with no outputs) are absent.
 */
export async function readOutputTexts(q: Db | Tx, submissionIds: readonly string[]): Promise<Map<string, StoredOutputs>> {
  const out = new Map<string, StoredOutputs>();
  if (submissionIds.length === 0) return out;
  const rows = await q.$queryRaw<{ id: string; test_set_id: string; chunk: number; texts: string }[]>`
    SELECT so.submission_id::text AS id, so.test_set_id::text AS test_set_id, ((t.k - 1) / ${READ_CHUNK})::int AS chunk, json_agg(t.x ORDER BY t.k)::text AS texts
    FROM submission_output so CROSS JOIN LATERAL unnest(so.texts) WITH ORDINALITY AS t(x, k)
    WHERE so.submission_id = ANY(${[...submissionIds]}::uuid[])
    GROUP BY so.submission_id, so.test_set_id, 3
    ORDER BY 1, 3`;
  for (const r of rows) {
    let s = out.get(r.id);
    if (!s) out.set(r.id, (s = { testSetId: r.test_set_id, texts: [] }));
    for (const t of JSON.parse(r.texts) as (string | null)[]) s.texts.push(t);
  }
  return out;
}

/** One submission's outputs at the given positions (a page of instances): position → text; positions without one are absent. */
export async function outputTextsAt(q: Db | Tx, submissionId: string, positions: readonly number[]): Promise<Map<number, string>> {
  if (positions.length === 0) return new Map();
  const rows = await q.$queryRaw<{ position: number; text: string | null }[]>`
    SELECT (t.k - 1)::int AS position, t.x AS text
    FROM submission_output so CROSS JOIN LATERAL unnest(so.texts) WITH ORDINALITY AS t(x, k)
    WHERE so.submission_id = ${submissionId}::uuid AND (t.k - 1) = ANY(${[...positions]}::int[])`;
  const out = new Map<number, string>();
  for (const r of rows) if (r.text !== null) out.set(r.position, r.text);
  return out;
}

/** The number of outputs a submission has (non-null elements), and its test set; null without a row. */
export async function outputExtent(q: Db | Tx, submissionId: string): Promise<{ testSetId: string; count: number } | null> {
  const [r] = await q.$queryRaw<{ test_set_id: string; count: number }[]>`
    SELECT test_set_id::text AS test_set_id, cardinality(array_remove(texts, NULL))::int AS count
    FROM submission_output WHERE submission_id = ${submissionId}::uuid`;
  return r ? { testSetId: r.test_set_id, count: r.count } : null;
}

/**
 * Stores the outputs of a new submission keyed by instance id (fixtures, the GraphQL-less
 * create): one row over the instances' test set, null where an instance has none. Nothing is
 * stored for no outputs.
 */
export async function writeOutputsById(tx: Tx, submissionId: string, outputs: readonly { instanceId: string; text: string }[]): Promise<void> {
  if (outputs.length === 0) return;
  const ids = [...new Set(outputs.map((o) => o.instanceId))];
  const found = await tx.$queryRaw<{ id: string; position: number; test_set_id: string }[]>`
    SELECT id::text, position, test_set_id::text FROM instance WHERE id = ANY(${ids}::uuid[])`;
  const testSets = new Set(found.map((f) => f.test_set_id));
  const [testSetId] = testSets;
  if (found.length !== ids.length || testSets.size !== 1 || testSetId === undefined) {
    const known = new Set(found.map((f) => f.id));
    const unknown = ids.find((id) => !known.has(id));
    throw new InvalidInputError(unknown ? `instance ${unknown} does not exist` : 'the outputs name instances of more than one test set', { field: 'outputs' });
  }
  const [size] = await tx.$queryRaw<{ n: number }[]>`SELECT coalesce(max(position) + 1, 0)::int AS n FROM instance WHERE test_set_id = ${testSetId}::uuid`;
  const texts = new Array<string | null>(size?.n ?? 0).fill(null);
  const positionOf = new Map(found.map((f) => [f.id, f.position]));
  for (const o of outputs) texts[positionOf.get(o.instanceId) ?? 0] = o.text;
  await writeOutputTexts(tx, submissionId, testSetId, texts);
}

/** Stores a submission's outputs in position order (`texts[p]`: position p of the test set). */
export async function writeOutputTexts(tx: Tx, submissionId: string, testSetId: string, texts: readonly (string | null)[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO submission_output (submission_id, test_set_id, texts) VALUES (${submissionId}::uuid, ${testSetId}::uuid, ${[...texts]}::text[])`;
}
