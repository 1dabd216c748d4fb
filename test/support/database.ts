/** The PostgreSQL URL `npm test` sets for DB-backed specs; undefined when a spec runs without it. */
export const DATABASE_URL = process.env['DATABASE_URL'];

/** `describe` when DATABASE_URL is set; otherwise `describe.skip`, with a warning naming `spec`. */
export function describeWithDatabase(spec: string): typeof describe {
  if (DATABASE_URL) return describe;
  console.warn(`${spec}: DATABASE_URL is not set, so these integration tests are SKIPPED (npm test sets it)`);
  return describe.skip;
}
