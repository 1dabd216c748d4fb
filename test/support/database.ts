import { randomUUID } from 'node:crypto';
import { IdentityRepository, Role, type Db } from '@podium/db';
import { Client } from 'pg';

/** The PostgreSQL URL `npm test` sets for DB-backed specs; undefined when a spec runs without it. */
export const DATABASE_URL = process.env['DATABASE_URL'];

/** `describe` when DATABASE_URL is set; otherwise `describe.skip`, with a warning naming `spec`. */
export function describeWithDatabase(spec: string): typeof describe {
  if (DATABASE_URL) return describe;
  console.warn(`${spec}: DATABASE_URL is not set, so these integration tests are SKIPPED (npm test sets it)`);
  return describe.skip;
}

/** A database of a spec's own: its URL, and `drop` for the spec's afterAll. */
export interface IsolatedDatabase {
  url: string;
  /** True when it is a clone of its own; false when the template was missing and `url` is the shared database. */
  own: boolean;
  drop: () => Promise<void>;
}

async function onServer(url: string, sql: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database cloned from the migrated template that `npm test` makes
 * (PODIUM_TEST_DATABASE_TEMPLATE), for a spec that must not share rows with the others: every
 * worker another spec starts reaps every lapsed lease in its database, so a spec that lets a lease
 * lapse and asserts what its own reaper did could find it already taken. Without a template (a
 * server that refused to make one, or a spec run with a DATABASE_URL of one's own) it is the
 * shared database, with a warning.
 */
export async function isolatedDatabase(label: string): Promise<IsolatedDatabase> {
  const shared = DATABASE_URL;
  if (!shared) throw new Error('isolatedDatabase: DATABASE_URL is not set (npm test sets it)');
  const template = process.env['PODIUM_TEST_DATABASE_TEMPLATE'];
  if (!template) {
    console.warn(`${label}: PODIUM_TEST_DATABASE_TEMPLATE is not set, so this spec shares DATABASE_URL with the others (npm test sets it)`);
    return { url: shared, own: false, drop: async () => undefined };
  }
  const name = `spec_${label.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 30)}_${randomUUID().slice(0, 8)}`;
  await onServer(shared, `CREATE DATABASE "${name}" TEMPLATE "${template.replace(/"/g, '""')}"`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return { url: url.toString(), own: true, drop: () => onServer(shared, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * Creates user `name` with the ORGANISER role and returns a new bearer token (`label`) of theirs.
 * They may create tasks and organise those they create (or are added to); nothing else.
 */
export async function createOrganiserToken(db: Db, name: string, label: string): Promise<string> {
  const identity = new IdentityRepository(db);
  const organiser = await identity.createUser(name, Role.ORGANISER);
  return identity.issueToken(organiser.id, label);
}

/** Creates administrator `name` (every task, teams and tokens for other users) and returns a token of theirs. */
export async function createAdminToken(db: Db, name: string, label: string): Promise<string> {
  const identity = new IdentityRepository(db);
  const admin = await identity.createUser(name, Role.ADMIN);
  return identity.issueToken(admin.id, label);
}
