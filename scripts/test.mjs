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
  const env = { ...process.env, DATABASE_URL: db.url, PODIUM_TEST: '1', NX_DAEMON: 'false', NX_NO_CLOUD: 'true', PODIUM_DATA_MIRROR: mirror, PODIUM_CACHE: testCache };
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
  await db?.stop();
  if (testCache) rmSync(testCache, { recursive: true, force: true });
}
process.exit(exitCode);
