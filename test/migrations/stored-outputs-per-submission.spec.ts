/**
 * The migration `20261128100000_stored_outputs_per_submission` against real PostgreSQL: a
 * database at the migration before it gets outputs the old way (one `output` row per instance,
 * inserted out of order, one submission missing a position, one with none); then the migration
 * runs as Prisma runs it. Every text must land at its instance's position (texts[p + 1]), a
 * missing one as a null element, and today's readers must give what the rows held.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createDb, IdentityRepository, readOutputTexts, Role, ScoreRepository, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { createDatabase, databaseUrl, repoRoot } from '../e2e/support/processes';
import { defined } from '../support/defined';

jest.setTimeout(120_000);

const MIGRATION = '20261128100000_stored_outputs_per_submission';
const MIGRATIONS = path.join(repoRoot, 'prisma', 'migrations');

/** A migration as Prisma applies it through the pg driver adapter: split at every ';', one statement at a time. */
async function applyAsPrisma(client: Client, name: string): Promise<void> {
  const script = readFileSync(path.join(MIGRATIONS, name, 'migration.sql'), 'utf8');
  for (const statement of script.split(';').map((s) => s.trim()).filter((s) => s.length > 0)) await client.query(statement);
}

// Texts COPY's text format and arrays would mangle if escaped wrongly: tabs, newlines, backslashes, quotes, braces, commas, NULL-looking words, empty.
const TEXTS = ['plain', 'tab\there', 'line\nbreak', 'back\\slash "quoted"', '{brace, comma}', 'NULL', '', 'Grüße 😀'];

describe(`migration ${MIGRATION}`, () => {
  let dropDatabase: () => Promise<void> = async () => undefined;
  let client: Client;
  let db: Db;
  let instanceIds: string[] = [];
  const ids = { full: '', gap: '', none: '' };

  beforeAll(async () => {
    const created = await createDatabase(databaseUrl(), 'podium_migration_outputs');
    dropDatabase = created.drop;
    client = new Client({ connectionString: created.url });
    await client.connect();
    for (const m of readdirSync(MIGRATIONS).filter((m) => /^\d{14}_/.test(m) && m < MIGRATION).sort()) await applyAsPrisma(client, m);
    // Every other table is as today: the repositories fill them; the outputs go in as rows.
    db = createDb(created.url, { maxConnections: 2 });
    const identity = new IdentityRepository(db);
    const tasks = new TaskRepository(db);
    const organiser = await identity.createUser('organiser', Role.ORGANISER);
    const team = await identity.createTeam('team', []);
    const task = await tasks.createTask({ slug: 'outputs', title: 'outputs', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id, metrics: [{ key: 'chrf', name: 'chrf' }] });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true });
    const testSet = await tasks.uploadTestSet(phase.id, 'ts', TEXTS.map((_, k) => ({ externalId: `i${k}`, source: `source ${k}`, references: [`reference ${k}`] })));
    instanceIds = (await tasks.instanceIdsOf(testSet.id)).map((i) => i.id);
    for (const name of ['full', 'gap', 'none'] as const) {
      ids[name] = (await db.submission.create({ data: { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: name, checksum: name } })).id;
    }
    // Out of position order, as rows came from createMany chunks and COPY.
    for (const k of [5, 0, 7, 2, 1, 6, 4, 3]) {
      await client.query('INSERT INTO output (submission_id, instance_id, text) VALUES ($1::uuid, $2::uuid, $3)', [ids.full, instanceIds[k], TEXTS[k]]);
      if (k !== 2) await client.query('INSERT INTO output (submission_id, instance_id, text) VALUES ($1::uuid, $2::uuid, $3)', [ids.gap, instanceIds[k], `gap ${TEXTS[k]}`]);
    }
    await applyAsPrisma(client, MIGRATION);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await client?.end();
    await dropDatabase();
  });

  it('drops output and stores one row per submission with outputs, each text at its position', async () => {
    expect((await client.query(`SELECT to_regclass('output') AS t`)).rows[0].t).toBeNull();
    const { rows } = await client.query<{ id: string; texts: (string | null)[]; lower: number }>(
      'SELECT submission_id::text AS id, texts, array_lower(texts, 1) AS lower FROM submission_output ORDER BY submission_id',
    );
    expect(rows.map((r) => r.id).sort()).toEqual([ids.full, ids.gap].sort());
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(defined(byId.get(ids.full)).texts).toEqual(TEXTS);
    expect(defined(byId.get(ids.gap)).texts).toEqual(TEXTS.map((t, k) => (k === 2 ? null : `gap ${t}`)));
    expect(rows.every((r) => r.lower === 1)).toBe(true);
  });

  it('gives today’s readers what the rows held: scoring input, aligned texts, the download rows', async () => {
    const input = defined(await new SubmissionRepository(db).scoringInput(ids.full));
    expect(input.texts).toEqual({ outputs: TEXTS, references: TEXTS.map((_, k) => [`reference ${k}`]), sources: TEXTS.map((_, k) => `source ${k}`) });
    // A task whose metrics read no source (BLEU, chrF, TER) reads none. One repository reads
    // both submissions of the test set: the references it keeps from the first read serve the
    // second, aligned by position around the gap, and sources are read once a task needs them.
    const repository = new SubmissionRepository(db);
    const unsourced = defined(await repository.scoringInput(ids.full, () => false));
    expect(unsourced.texts).toEqual({ outputs: TEXTS, references: TEXTS.map((_, k) => [`reference ${k}`]), sources: null });
    const others = TEXTS.flatMap((t, k) => (k === 2 ? [] : [{ t, k }]));
    const gap = { outputs: others.map(({ t }) => `gap ${t}`), references: others.map(({ k }) => [`reference ${k}`]) };
    expect(defined(await repository.scoringInput(ids.gap, () => false)).texts).toEqual({ ...gap, sources: null });
    expect(defined(await repository.scoringInput(ids.gap, () => true)).texts).toEqual({ ...gap, sources: others.map(({ k }) => `source ${k}`) });
    expect(defined(await repository.scoringInput(ids.gap, () => false)).texts).toEqual({ ...gap, sources: null });
    const stored = await readOutputTexts(db, [ids.full, ids.gap, ids.none]);
    expect(stored.has(ids.none)).toBe(false);
    const testSetId = defined(stored.get(ids.full)).testSetId;
    const aligned = await new ScoreRepository(db).alignedTexts(testSetId, [ids.gap]);
    expect(aligned.outputs).toEqual([TEXTS.map((t, k) => (k === 2 ? '' : `gap ${t}`))]);
    const rows = [];
    for await (const page of new SubmissionRepository(db).outputRows(ids.gap, TEXTS.length, 3)) rows.push(...page);
    expect(rows).toEqual(TEXTS.flatMap((t, k) => (k === 2 ? [] : [{ instanceId: `i${k}`, position: k, text: `gap ${t}` }])));
  });
});
