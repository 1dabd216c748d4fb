/**
 * The migration `20261124090000_stored_scores_by_column` against real PostgreSQL: a database at
 * the migration before it is filled with scores in the row layout (one `instance_score` row per
 * score) for a demo-like phase (WMT17 de-en, 11 systems, BLEU, chrF and TER from
 * @podium/metrics), some cells missing; then the migration runs as Prisma runs it. Every value
 * must land in its instance's position, the signature and corpus scores must survive, and the
 * phase's downloads must be byte for byte what the pre-change query (kept below) wrote.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createDb, decodeValues, IdentityRepository, Role, ScoreRepository, SubmissionRepository, TaskKind, TaskRepository, type Db, type LongScoreRow } from '@podium/db';
import { score, type MetricName } from '@podium/metrics';
import { exportHeader, exportLine, type ExportFormat } from '../../apps/api/src/downloads/csv-writer';
import { createDatabase, databaseUrl, repoRoot } from '../e2e/support/processes';
import { defined } from '../support/defined';
import { wmtFiles } from '../support/test-data';

jest.setTimeout(180_000);

const MIGRATION = '20261124090000_stored_scores_by_column';
const MIGRATIONS = path.join(repoRoot, 'prisma', 'migrations');
const METRICS: MetricName[] = ['bleu', 'chrf', 'ter'];
const SEGMENTS = 300;

/** A migration as Prisma applies it through the pg driver adapter: split at every ';', one statement at a time. */
async function applyAsPrisma(client: Client, name: string): Promise<void> {
  const script = readFileSync(path.join(MIGRATIONS, name, 'migration.sql'), 'utf8');
  for (const statement of script.split(';').map((s) => s.trim()).filter((s) => s.length > 0)) await client.query(statement);
}

/**
 * The long rows of a phase as the code before this migration read them (commit 4bb9499,
 * libs/db/src/score.repository.ts `longRows`): keyset pages over the joined position.
 */
async function preChangeLongRows(client: Client, submissionIds: string[], pageSize = 5000): Promise<LongScoreRow[]> {
  const out: LongScoreRow[] = [];
  let after: { sub: string; metric: string; pos: number } | null = null;
  for (;;) {
    const cursor: string = after ? `AND (sc.submission_id, sc.metric, i.position) > ($2::uuid, $3, $4)` : '';
    type Row = { submission_id: string; system_name: string; team_name: string; external_id: string; position: number; metric: string; signature: string; value: number };
    const { rows }: { rows: Row[] } = await client.query<Row>(
      `SELECT sc.submission_id, s.system_name, t.name AS team_name, i.external_id, i.position, sc.metric, sc.signature, sc.value
       FROM instance_score sc
       JOIN instance i ON i.id = sc.instance_id
       JOIN submission s ON s.id = sc.submission_id
       JOIN team t ON t.id = s.team_id
       WHERE sc.submission_id = ANY($1::uuid[]) ${cursor}
       ORDER BY sc.submission_id, sc.metric, i.position
       LIMIT ${pageSize}`,
      after ? [submissionIds, after.sub, after.metric, after.pos] : [submissionIds],
    );
    for (const r of rows) {
      out.push({ submissionId: r.submission_id, systemName: r.system_name, teamName: r.team_name, instanceId: r.external_id, position: r.position, metric: r.metric, signature: r.signature, score: r.value });
    }
    if (rows.length < pageSize) return out;
    const last: Row = defined(rows[rows.length - 1], 'the last row of a full page');
    after = { sub: last.submission_id, metric: last.metric, pos: last.position };
  }
}

/** A download body as the controller writes it (apps/api/src/downloads/downloads.controller.ts). */
function download(format: ExportFormat, rows: LongScoreRow[]): string {
  return exportHeader(format) + rows.map((r) => exportLine(format, { system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score })).join('');
}

describe(`migration ${MIGRATION}`, () => {
  let dropDatabase: () => Promise<void> = async () => undefined;
  let client: Client;
  let db: Db;
  /** What went into the row layout: submission → metric → value per position (NaN: no row). */
  const expected = new Map<string, Map<string, { signature: string; values: number[]; corpus: number }>>();
  const expectedOf = (submissionId: string, metric: string) => defined(defined(expected.get(submissionId), `submission ${submissionId}`).get(metric), `${metric} of submission ${submissionId}`);
  const submissionIds: string[] = [];
  let testSetId = '';
  let before: { csv: string; jsonl: string };

  beforeAll(async () => {
    const created = await createDatabase(databaseUrl(), 'podium_migration');
    dropDatabase = created.drop;
    client = new Client({ connectionString: created.url });
    await client.connect();
    const all = readdirSync(MIGRATIONS).filter((m) => /^\d{14}_/.test(m)).sort();
    // Later migrations that leave the score tables alone (e.g. 20261125100000_added_phase_state_machine)
    // run before this one too: the repositories below are today's Prisma client, which reads their columns.
    const scoreTables = /\b(instance_score|score_column|corpus_score)\b/;
    const independent = (m: string) => !scoreTables.test(readFileSync(path.join(MIGRATIONS, m, 'migration.sql'), 'utf8'));
    const earlier = all.filter((m) => m < MIGRATION || (m > MIGRATION && independent(m)));
    for (const m of earlier) await applyAsPrisma(client, m);
    // Tables other than the scores' are unchanged by the migration: the repositories fill them.
    db = createDb(created.url, { maxConnections: 2 });
    const identity = new IdentityRepository(db);
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const organiser = await identity.createUser('organiser', Role.ORGANISER);
    const team = await identity.createTeam('wmt17', []);
    // Not TaskRepository.createTask: it also writes task_organiser, a table of a later migration.
    const task = await db.task.create({ data: { slug: 'wmt17-de-en', title: 'WMT17 de-en', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: METRICS.map((m) => ({ key: m, name: m })), createdById: organiser.id } });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'test', opensAt: new Date('2017-01-01'), closesAt: new Date('2017-12-31'), dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true });
    const wmt = await wmtFiles('wmt17-de-en');
    const lines = (file: string) => readFileSync(file, 'utf8').split('\n');
    const source = lines(wmt.source);
    const reference = lines(wmt.reference);
    // Every tenth segment, as a demo test set of a few hundred instances.
    const sids = Array.from({ length: SEGMENTS }, (_, k) => 1 + 10 * k);
    await tasks.uploadTestSet(phase.id, 'newstest2017', sids.map((sid) => ({ externalId: String(sid), source: defined(source[sid - 1], `source line ${sid}`), references: [defined(reference[sid - 1], `reference line ${sid}`)] })));
    testSetId = defined(defined(await tasks.phaseById(phase.id), 'the phase').testSetId, 'the phase\'s test set');
    const instances = await tasks.instanceIdsOf(testSetId);
    const refs = instances.map((i) => defined(reference[Number(i.externalId) - 1], `reference line ${i.externalId}`));
    for (const [k, system] of wmt.systems.entries()) {
      const output = lines(system.file);
      const texts = instances.map((i) => defined(output[Number(i.externalId) - 1], `${system.name} line ${i.externalId}`));
      const sub = await submissions.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: system.name, description: '', checksum: system.name, bypassLimits: true, outputs: instances.map((i, j) => ({ instanceId: i.id, text: defined(texts[j], `output ${j}`) })) },
        async () => undefined,
      );
      submissionIds.push(sub.id);
      const byMetric = new Map<string, { signature: string; values: number[]; corpus: number }>();
      for (const m of METRICS) {
        const s = score(m, {}, texts, [refs]);
        // Cells the row layout may lack (a fixture, an import): the first system misses every
        // seventh chrF score, the second its last TER score.
        const values = s.instances.map((v, j) => ((k === 0 && m === 'chrf' && j % 7 === 3) || (k === 1 && m === 'ter' && j === instances.length - 1) ? Number.NaN : v));
        byMetric.set(m, { signature: s.sentenceSignature, values, corpus: s.corpus });
        const cells = values.flatMap((v, j) => (Number.isNaN(v) ? [] : [[sub.id, defined(instances[j], `instance ${j}`).id, m, s.sentenceSignature, v] as const]));
        for (let at = 0; at < cells.length; at += 1000) {
          const chunk = cells.slice(at, at + 1000);
          await client.query(
            `INSERT INTO instance_score (submission_id, instance_id, metric, signature, value) VALUES ${chunk.map((_, c) => `($${5 * c + 1}::uuid, $${5 * c + 2}::uuid, $${5 * c + 3}, $${5 * c + 4}, $${5 * c + 5})`).join(', ')}`,
            chunk.flat(),
          );
        }
        await client.query(`INSERT INTO corpus_score (submission_id, metric, signature, value) VALUES ($1, $2, $3, $4)`, [sub.id, m, s.signature, s.corpus]);
      }
      expected.set(sub.id, byMetric);
    }
    await client.query(`UPDATE submission SET status = 'SCORED', scored_at = now() WHERE id = ANY($1::uuid[])`, [submissionIds]);
    const rows = await preChangeLongRows(client, submissionIds);
    expect(rows.length).toBe(wmt.systems.length * METRICS.length * SEGMENTS - Math.ceil((SEGMENTS - 3) / 7) - 1);
    before = { csv: download('csv', rows), jsonl: download('jsonl', rows) };
    await applyAsPrisma(client, MIGRATION);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await client?.end();
    await dropDatabase();
  });

  it('drops instance_score and keeps corpus_score as it was', async () => {
    expect((await client.query(`SELECT to_regclass('instance_score') AS t`)).rows[0].t).toBeNull();
    const corpus = await db.corpusScore.findMany({ where: { submissionId: { in: submissionIds } } });
    expect(corpus).toHaveLength(submissionIds.length * METRICS.length);
    for (const c of corpus) expect(c.value).toBe(expectedOf(c.submissionId, c.metric).corpus);
  });

  it('stores one column per submission and metric with every value at its position, NaN where a row was missing', async () => {
    const columns = await db.scoreColumn.findMany({ where: { submissionId: { in: submissionIds } } });
    expect(columns).toHaveLength(submissionIds.length * METRICS.length);
    for (const c of columns) {
      const want = expectedOf(c.submissionId, c.metric);
      expect(c.testSetId).toBe(testSetId);
      expect(c.signature).toBe(want.signature);
      expect(c.count).toBe(SEGMENTS);
      expect(c.scored).toBe(want.values.filter((v) => !Number.isNaN(v)).length);
      expect(c.stats).toBeNull();
      // Bit for bit, NaN included (Object.is).
      const got = [...decodeValues(c.values)];
      expect(got.every((v, j) => Object.is(v, want.values[j]))).toBe(true);
    }
  });

  it('keeps exactly 8 bytes per score in the value payload', async () => {
    const { rows } = await client.query<{ bytes: number; values: number }>(
      `SELECT sum(octet_length("values"))::int AS bytes, sum(count)::int AS values FROM score_column WHERE submission_id = ANY($1::uuid[])`,
      [submissionIds],
    );
    const sums = defined(rows[0], 'the sums');
    expect(sums.bytes).toBe(8 * sums.values);
    expect(sums.values).toBe(submissionIds.length * METRICS.length * SEGMENTS);
  });

  it('downloads the phase byte for byte as before the migration (CSV and JSONL)', async () => {
    const pages: LongScoreRow[] = [];
    // A small page size, so columns span several pages.
    for await (const page of new ScoreRepository(db).longRows(submissionIds, 97)) {
      expect(page.length).toBeLessThanOrEqual(97);
      pages.push(...page);
    }
    expect(download('csv', pages)).toBe(before.csv);
    expect(download('jsonl', pages)).toBe(before.jsonl);
  });

  it('reads the matrix as before: one row per system, values by position, NaN for missing cells', async () => {
    const phaseId = (await db.submission.findUniqueOrThrow({ where: { id: defined(submissionIds[0], 'the first submission') } })).phaseId;
    const m = await new ScoreRepository(db).matrix(phaseId, 'chrf', testSetId);
    expect(m.instances).toEqual(Array.from({ length: SEGMENTS }, (_, k) => String(1 + 10 * k)));
    for (const [k, s] of m.systems.entries()) {
      const want = expectedOf(s.submissionId, 'chrf');
      expect(defined(m.values[k], `matrix row ${k}`).every((v, j) => Object.is(v, want.values[j]))).toBe(true);
      expect(defined(m.corpus[k], `corpus score ${k}`).value).toBe(want.corpus);
    }
  });
});
