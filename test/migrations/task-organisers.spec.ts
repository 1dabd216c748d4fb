/**
 * The migration `20261125120000_added_task_organisers_and_admins` against real PostgreSQL: a
 * database at the migration before it holds two organisers with a task each (the one global
 * organiser role of issue #20); after the migration, as Prisma runs it, each task is organised
 * by its creator only, nobody became ADMIN, and existing tokens have no issuer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createDatabase, databaseUrl, repoRoot } from '../e2e/support/processes';

jest.setTimeout(120_000);

const MIGRATION = '20261125120000_added_task_organisers_and_admins';
const MIGRATIONS = path.join(repoRoot, 'prisma', 'migrations');

/** A migration as Prisma applies it through the pg driver adapter: split at every ';', one statement at a time. */
async function applyAsPrisma(client: Client, name: string): Promise<void> {
  const script = readFileSync(path.join(MIGRATIONS, name, 'migration.sql'), 'utf8');
  for (const statement of script.split(';').map((s) => s.trim()).filter((s) => s.length > 0)) await client.query(statement);
}

describe(`migration ${MIGRATION}`, () => {
  let drop: () => Promise<void> = async () => undefined;
  let client: Client;

  beforeAll(async () => {
    const created = await createDatabase(databaseUrl(), 'podium_migration_organisers');
    drop = created.drop;
    client = new Client({ connectionString: created.url });
    await client.connect();
    for (const m of readdirSync(MIGRATIONS).filter((n) => /^\d{14}_/.test(n) && n < MIGRATION).sort()) await applyAsPrisma(client, m);
    await client.query(`INSERT INTO "user" (id, name, role) VALUES ('00000000-0000-0000-0000-00000000000a', 'olga', 'ORGANISER'), ('00000000-0000-0000-0000-00000000000b', 'oscar', 'ORGANISER'), ('00000000-0000-0000-0000-00000000000c', 'pia', 'PARTICIPANT')`);
    await client.query(
      `INSERT INTO task (id, slug, title, kind, source_lang, target_lang, metrics, created_by_id) VALUES
       ('00000000-0000-0000-0000-0000000000f1', 'x', 'X', 'MT', 'de', 'en', '[]', '00000000-0000-0000-0000-00000000000a'),
       ('00000000-0000-0000-0000-0000000000f2', 'y', 'Y', 'MT', 'de', 'en', '[]', '00000000-0000-0000-0000-00000000000b')`,
    );
    await client.query(`INSERT INTO api_token (id, user_id, label, token_hash) VALUES ('00000000-0000-0000-0000-0000000000e1', '00000000-0000-0000-0000-00000000000c', 'support', 'h1')`);
    await applyAsPrisma(client, MIGRATION);
  });

  afterAll(async () => {
    await client?.end();
    await drop();
  });

  it("makes each task's creator its only organiser", async () => {
    const { rows } = await client.query<{ slug: string; name: string }>(`SELECT t.slug, u.name FROM task_organiser o JOIN task t ON t.id = o.task_id JOIN "user" u ON u.id = o.user_id ORDER BY t.slug, u.name`);
    expect(rows).toEqual([
      { slug: 'x', name: 'olga' },
      { slug: 'y', name: 'oscar' },
    ]);
  });

  it('promotes nobody to ADMIN and leaves existing tokens without an issuer', async () => {
    const roles = await client.query<{ name: string; role: string }>(`SELECT name, role::text AS role FROM "user" ORDER BY name`);
    expect(roles.rows).toEqual([
      { name: 'olga', role: 'ORGANISER' },
      { name: 'oscar', role: 'ORGANISER' },
      { name: 'pia', role: 'PARTICIPANT' },
    ]);
    const tokens = await client.query<{ issued_by_id: string | null }>(`SELECT issued_by_id FROM api_token`);
    expect(tokens.rows).toEqual([{ issued_by_id: null }]);
    // ADMIN is a value of the enum now.
    await client.query(`UPDATE "user" SET role = 'ADMIN' WHERE name = 'pia'`);
  });
});
