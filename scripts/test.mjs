// `npm test`: installs what is missing, type-checks and lints (failing before any test runs, `npm
// run lint`) while it starts a throw-away PostgreSQL (embedded, or the server named by
// TEST_DATABASE_URL — never DATABASE_URL) and applies migrations, then runs every Jest project
// (unit specs, integration and end-to-end tests) against it. The apps that tests start as
// processes run from dist/, built first (`npm run build`, skipped when up to date), as `npm run
// up` and the Docker images run them.
// Extra arguments go to Jest, e.g. `npm test -- libs/ranking`.
import { readFileSync, mkdirSync, mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { staticChecks } from './lib/lint.mjs';
import { ensureBuild, ensureDependencies, ensurePluginIndexes, ensureWebBuild, migrateInBackground, root, run, say } from './lib/workspace.mjs';

const args = process.argv.slice(2);
ensureDependencies();
// The plugin registries' indexes (git-ignored, ADR 0036), before the type-check and Jest read them.
await ensurePluginIndexes();
const { startPostgres } = await import('./lib/postgres.mjs');

let db;
let testCache;
/** A copy of the migrated database that specs clone for a database of their own (test/support/database.ts). */
let template = null;

/**
 * Specs share one database, and the workers that other specs start reap every lapsed lease in it:
 * a spec that lets a lease lapse and asserts that its own reaper took it clones this template
 * instead (`isolatedDatabase`). Made while nothing is connected to the migrated database (CREATE
 * DATABASE … TEMPLATE needs that); on a server that refuses it, those specs use the shared one.
 */
async function makeTemplate(url) {
  const source = decodeURIComponent(new URL(url).pathname.slice(1));
  const name = `${source}_spec_template_${process.pid}`;
  const made = await adminQuery(url, `CREATE DATABASE "${name}" TEMPLATE "${source}"`, `could not make ${name}; specs that need a database of their own use the shared one`);
  return made ? name : null;
}

/** Runs `sql` on the server's `postgres` database; false (with a warning) when it fails. */
async function adminQuery(url, sql, failure) {
  const { default: pg } = await import('pg');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  try {
    await client.connect();
    await client.query(sql);
    return true;
  } catch (e) {
    say(`warning: ${failure} (${e instanceof Error ? e.message : String(e)})`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
let exitCode = 1;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    say(`${signal}: stopping PostgreSQL`);
    void (db?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}
const started = Date.now();
try {
  // One data directory per run, so that two `npm test` runs in one checkout cannot collide.
  /** PostgreSQL with the migrations applied, and the apps (and the web app) built. */
  const prepare = async () => {
    db = await startPostgres({ root, name: `test-${process.pid}`, persistent: false, log: say });
    await migrateInBackground(db.url);
    template = await makeTemplate(db.url);
    await ensureBuild();
    // Browser specs serve apps/web/dist: built here once, not by whichever spec starts first.
    if (args.length === 0 || args.some((a) => /browser|e2e/.test(a))) await ensureWebBuild();
  };
  if (args.length === 0) {
    // The static checks (both type-checks and ESLint, side by side) fail the run before any test
    // runs. PostgreSQL, the migrations and the builds get going meanwhile: ESLint, the longest of
    // the checks, leaves a core free once the type-checks are done.
    say('type-checking (tsc --noEmit) and linting (npm run lint), side by side with starting PostgreSQL and the builds…');
    const checking = staticChecks();
    const preparing = prepare();
    const [failed, prepared] = await Promise.all([checking, preparing.then(() => null, (e) => e)]);
    if (failed.length > 0) throw new Error(`${failed.join(', ')} failed (see above)${failed.includes('lint') ? '; `npm run lint -- --fix` fixes some of it' : ''}`);
    if (prepared) throw prepared;
  } else {
    await prepare();
  }
  mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const results = path.join(root, 'tmp', 'jest-results.json');
  // Data sets come from the offline mirror (PODIUM_DATA_MIRROR; for tests only, default
  // ../shared/data/mirror beside the checkout, where CI keeps it) into a cache of this run.
  const mirror = process.env.PODIUM_DATA_MIRROR || path.resolve(root, '..', 'shared', 'data', 'mirror');
  if (!existsSync(mirror) && !/^https?:\/\//.test(mirror)) say(`warning: data mirror ${mirror} does not exist; tests that need data sets will fail (set PODIUM_DATA_MIRROR)`);
  testCache = mkdtempSync(path.join(tmpdir(), 'podium-test-cache-'));
  const env = { ...process.env, DATABASE_URL: db.url, PODIUM_TEST: '1', NX_DAEMON: 'false', NX_NO_CLOUD: 'true', PODIUM_DATA_MIRROR: mirror, PODIUM_CACHE: testCache, ...(template ? { PODIUM_TEST_DATABASE_TEMPLATE: template } : {}) };
  say('running tests…');
  try {
    run(path.join(root, 'node_modules', '.bin', 'jest'), ['--ci', '--maxWorkers=2', '--json', `--outputFile=${results}`, ...args], { env });
    exitCode = 0;
  } catch {
    exitCode = 1;
  }
  if (existsSync(results)) {
    const r = JSON.parse(readFileSync(results, 'utf8'));
    const skipped = r.numPendingTests + r.numTodoTests;
    if (r.numTotalTestSuites === 0 || r.numTotalTests === 0) exitCode = 1;
    if (r.numRuntimeErrorTestSuites > 0) exitCode = 1;
    say(`${r.numTotalTestSuites} suites in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    process.stdout.write(`Tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped\n`);
  }
} catch (e) {
  say(e instanceof Error ? e.message : String(e));
  exitCode = 1;
} finally {
  // On a server of its own the template goes with the data directory.
  if (template && db && !db.embedded) await adminQuery(db.url, `DROP DATABASE IF EXISTS "${template}"`, `could not drop ${template}`);
  await db?.stop();
  if (testCache) rmSync(testCache, { recursive: true, force: true });
}
process.exit(exitCode);
