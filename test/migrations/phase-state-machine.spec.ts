/**
 * The migration `20261125100000_added_phase_state_machine` against real PostgreSQL: a database at
 * the migration before it holds what main let happen (issue #20) — a team with three primaries
 * from concurrent markPrimary calls, a phase published while still open — written with plain SQL
 * (today's Prisma client reads the columns the migration adds). After the migration, run as
 * Prisma runs it: the team keeps its newest primary only, the database refuses a second one,
 * and the published phase counts as closed early when it was published.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createDatabase, databaseUrl, repoRoot } from '../e2e/support/processes';

jest.setTimeout(120_000);

const MIGRATION = '20261125100000_added_phase_state_machine';
const MIGRATIONS = path.join(repoRoot, 'prisma', 'migrations');

async function applyAsPrisma(client: Client, name: string): Promise<void> {
  const script = readFileSync(path.join(MIGRATIONS, name, 'migration.sql'), 'utf8');
  for (const statement of script.split(';').map((s) => s.trim()).filter((s) => s.length > 0)) await client.query(statement);
}

describe(`migration ${MIGRATION}`, () => {
  let dropDatabase: () => Promise<void> = async () => undefined;
  let client: Client;
  const ids = { user: randomUUID(), team: randomUUID(), task: randomUUID(), open: randomUUID(), published: randomUUID() };
  const subs = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    const created = await createDatabase(databaseUrl(), 'podium_migration');
    dropDatabase = created.drop;
    client = new Client({ connectionString: created.url });
    await client.connect();
    for (const m of readdirSync(MIGRATIONS).filter((m) => /^\d{14}_/.test(m) && m < MIGRATION).sort()) await applyAsPrisma(client, m);
    await client.query(`INSERT INTO "user" (id, name, role) VALUES ($1, 'olga', 'ORGANISER')`, [ids.user]);
    await client.query(`INSERT INTO team (id, name) VALUES ($1, 'team-a')`, [ids.team]);
    await client.query(`INSERT INTO task (id, slug, title, kind, source_lang, target_lang, metrics, created_by_id) VALUES ($1, 't', 'T', 'MT', 'de', 'en', '[]', $2)`, [ids.task, ids.user]);
    // One phase still open with three primaries of team-a (and one plain submission); one published while open.
    await client.query(`INSERT INTO phase (id, task_id, name, opens_at, closes_at, daily_limit, total_limit) VALUES ($1, $2, 'open', '2020-01-01', '2099-01-01', 5, 5)`, [ids.open, ids.task]);
    await client.query(
      `INSERT INTO phase (id, task_id, name, opens_at, closes_at, daily_limit, total_limit, published_at) VALUES ($1, $2, 'published-open', '2020-01-01', '2099-01-01', 5, 5, '2026-11-20T10:00:00Z')`,
      [ids.published, ids.task],
    );
    for (const [k, id] of subs.entries()) {
      await client.query(
        `INSERT INTO submission (id, phase_id, team_id, submitted_by_id, system_name, checksum, is_primary, created_at) VALUES ($1, $2, $3, $4, $5, $5, $6, $7)`,
        [id, ids.open, ids.team, ids.user, `sys-${k}`, k < 3, new Date(Date.UTC(2026, 10, 20, 10, k))],
      );
    }
    await applyAsPrisma(client, MIGRATION);
  });

  afterAll(async () => {
    await client?.end();
    await dropDatabase();
  });

  it('keeps only the newest of several primaries of one team (sys-2 of sys-0, sys-1, sys-2)', async () => {
    const { rows } = await client.query<{ system_name: string }>(`SELECT system_name FROM submission WHERE is_primary ORDER BY system_name`);
    expect(rows.map((r) => r.system_name)).toEqual(['sys-2']);
  });

  it('refuses a second primary of the team in the phase', async () => {
    await expect(client.query(`UPDATE submission SET is_primary = true WHERE id = $1`, [subs[3]])).rejects.toThrow(/submission_one_primary_per_team/);
  });

  it('counts a phase published while open as closed early at its publishing time, and leaves the open one open', async () => {
    const { rows } = await client.query<{ name: string; closed_early_at: Date | null }>(`SELECT name, closed_early_at FROM phase ORDER BY name`);
    expect(rows).toEqual([
      { name: 'open', closed_early_at: null },
      { name: 'published-open', closed_early_at: new Date('2026-11-20T10:00:00Z') },
    ]);
  });

  it('lets the system be an audit actor (a null actor) and makes new moderation reasons private', async () => {
    await client.query(`INSERT INTO audit_entry (id, actor_id, action, target_type, target_id) VALUES ($1, NULL, 'submission.primary-auto', 'submission', $2)`, [randomUUID(), subs[2]]);
    const { rows } = await client.query<{ moderation_reason_public: boolean }>(`SELECT DISTINCT moderation_reason_public FROM submission`);
    expect(rows).toEqual([{ moderation_reason_public: false }]);
  });
});
