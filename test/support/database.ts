import { IdentityRepository, Role, type Db } from '@podium/db';

/** The PostgreSQL URL `npm test` sets for DB-backed specs; undefined when a spec runs without it. */
export const DATABASE_URL = process.env['DATABASE_URL'];

/** `describe` when DATABASE_URL is set; otherwise `describe.skip`, with a warning naming `spec`. */
export function describeWithDatabase(spec: string): typeof describe {
  if (DATABASE_URL) return describe;
  console.warn(`${spec}: DATABASE_URL is not set, so these integration tests are SKIPPED (npm test sets it)`);
  return describe.skip;
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
