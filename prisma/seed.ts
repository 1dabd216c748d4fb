/**
 * Seeds the demo task: WMT17 German→English, the 506 segments that carry the 560 segment-level
 * human DA judgements, its reference, and the 11 systems' outputs as submissions of 11 demo
 * teams, queued for the worker. The data comes through the dataset registry (@podium/datasets:
 * data set wmt17-de-en, from github.com/cyr19/MENLI at a fixed commit, MIT), fetched into the
 * user cache (PODIUM_CACHE) from upstream or PODIUM_DATA_MIRROR and verified. Without the data
 * (no network, no mirror) it seeds no demo task and says how to get it.
 * Idempotent: running it again adds nothing that exists, and fetches nothing it does not need.
 * Also makes sure an organiser account exists and, when PODIUM_ORGANISER_TOKEN_FILE names a
 * file (npm run up: .data/organiser-token), that the file holds a valid token for it.
 * PODIUM_SEED_STATUS_FILE, when set, receives {"demo":"seeded"|"unavailable","reason"?}.
 * PODIUM_SEED_EXPORT_DIR, when set, makes the task, test set and teams but no submissions: each
 * system's outputs go to <dir>/<system>.jsonl ({"id","output"}) and <dir>/demo.json lists the
 * phase and each system's team, for submitting through the API (`podium submit`, as
 * `npm run test:deploy` does). PODIUM_SEED_ROBUSTNESS=off queues no robustness reports.
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commitInstances, newCommitmentSalt, sendScoreJob, SCORE_SUBMISSION_QUEUE, startQueue } from '@podium/contracts';
import {
  buildWmtTestSet,
  type DataOptions,
  DataFetchError,
  datasetBytes,
  datasetCacheStatus,
  dataSourceFromEnv,
  defaultCacheDir,
  DEMO_DATASET,
  describeSource,
  fetchDatasetEntry,
  getDataset,
  type WmtTestSet,
} from '@podium/datasets';
import { createDb, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository } from '@podium/db';
import PgBoss from 'pg-boss';

export const DEMO_SLUG = 'wmt17-de-en';
/** The robustness suite queued for the demo task; the demo's data set is the registry's DEMO_DATASET. */
const DEMO_SUITE = 'builtin:wmt20-de';

const mb = (bytes: number | null) => (bytes === null ? 'size unknown' : `${(bytes / 1e6).toFixed(1)} MB`);

/** What the seed did with the demo task. */
export type SeedOutcome = { demo: 'seeded' | 'already seeded' } | { demo: 'unavailable'; reason: string };

/** What to do besides the task: queue the systems as submissions (default) or export them; robustness reports or not. */
export interface SeedOptions {
  exportDir?: string;
  robustness?: boolean;
}

/** The demo's systems as exported by PODIUM_SEED_EXPORT_DIR (demo.json). */
export interface DemoExport {
  phaseId: string;
  systems: { system: string; teamId: string; file: string }[];
}

/**
 * Fetches a data set (when not cached yet) and says so in one line: what, how big, from
 * where, into which folder.
 */
async function fetchAnnounced(nameOrSuite: string, options: Required<Pick<DataOptions, 'cacheDir' | 'source'>>, log: (m: string) => void) {
  const d = getDataset(nameOrSuite);
  const cached = datasetCacheStatus(d, options).cached;
  const started = Date.now();
  if (!cached) log(`fetching data set ${d.name} (${d.files.length} files, ${mb(datasetBytes(d))}) from ${describeSource(options.source)} into ${options.cacheDir}…`);
  const fetched = await fetchDatasetEntry(d, { ...options, log: (m) => log(`  ${m}`) });
  log(
    cached
      ? `data set ${d.name}: cached in ${fetched.root} (verified)`
      : `data set ${d.name}: ${mb(fetched.downloadedBytes)} in ${((Date.now() - started) / 1000).toFixed(1)} s, verified (sha256), cached in ${fetched.root}`,
  );
  return d;
}

/**
 * Seeds the database at `url`. Data options default to the environment (PODIUM_CACHE,
 * PODIUM_DATA_MIRROR).
 */
export async function seed(
  url: string,
  dataOptions: Partial<Pick<DataOptions, 'cacheDir' | 'source'>> = {},
  log: (m: string) => void = (m) => console.log(m),
  options: SeedOptions = {},
): Promise<SeedOutcome> {
  const data = { cacheDir: dataOptions.cacheDir ?? defaultCacheDir(), source: dataOptions.source ?? dataSourceFromEnv() };
  let outcome: SeedOutcome = { demo: 'already seeded' };
  const db = createDb(url, { maxConnections: 3 });
  const identity = new IdentityRepository(db);
  const tasks = new TaskRepository(db);
  const submissions = new SubmissionRepository(db);
  const boss = new PgBoss({ connectionString: url, max: 2 });
  boss.on('error', (e: unknown) => console.error(`pg-boss: ${String(e)}`));
  await startQueue(boss);
  await boss.createQueue(SCORE_SUBMISSION_QUEUE);
  try {
    // The demo's organiser administers the instance (every task, teams and tokens for others);
    // a database seeded before roles were per task is promoted.
    const demoOrganiser = await identity.userByName('organiser');
    const organiser = demoOrganiser ?? (await identity.createUser('organiser', Role.ADMIN));
    if (organiser.role !== Role.ADMIN) await identity.setRole(organiser.id, Role.ADMIN);
    // `npm run up` names a file for the organiser's token; other callers (tests) write none.
    // A file whose token this database does not know (another database, a revoked token) is
    // replaced with a fresh token.
    const tokenFile = process.env['PODIUM_ORGANISER_TOKEN_FILE'];
    if (tokenFile) {
      const current = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '';
      const known = current ? await identity.userByToken(current) : null;
      if (!known || known.id !== organiser.id) {
        mkdirSync(path.dirname(tokenFile), { recursive: true });
        const token = await identity.issueToken(organiser.id, 'npm run up');
        writeFileSync(tokenFile, token + '\n', { mode: 0o600 });
      }
    }

    let task = await tasks.taskBySlug(DEMO_SLUG);
    const demoTestSet = getDataset(DEMO_DATASET).testSet;
    if (!demoTestSet) throw new Error(`${DEMO_DATASET} is not a test set`);
    const demoSystems = Object.keys(demoTestSet.systems);
    const existingPhase = task?.phases.find((p) => p.name === 'test');
    const seededSystems = existingPhase ? new Set((await submissions.ofPhase(existingPhase.id)).map((s) => s.systemName)) : new Set<string>();
    const needsData = !existingPhase?.testSetId || options.exportDir !== undefined || demoSystems.some((s) => !seededSystems.has(s));
    let testSet: WmtTestSet | null = null;
    if (needsData) {
      try {
        const d = await fetchAnnounced(DEMO_DATASET, data, log);
        testSet = buildWmtTestSet(d, data);
      } catch (e) {
        if (!(e instanceof DataFetchError)) throw e;
        outcome = { demo: 'unavailable', reason: e.message };
        log(`demo task not seeded: ${e.message}`);
        return outcome;
      }
      outcome = { demo: 'seeded' };
    }
    if (!task) {
      await tasks.createTask({
        slug: DEMO_SLUG,
        title: 'WMT17 news translation, German→English (DA subset)',
        description:
          'The 506 segments of newstest2017 de-en that carry the 560 segment-level direct-assessment judgements, and the 11 systems submitted to WMT17. Data: WMT17 via MENLI (MIT). ' +
          'NLI scores come from the NLI model the worker is configured with; out of the box that is test-nli-tiny, a generated test model (word overlap, negation and number rules), not a trained NLI model — fetch one with `npm run -s podium -- models fetch nli-deberta-v3-xsmall` and set PODIUM_NLI_MODEL.',
        kind: TaskKind.MT,
        sourceLang: 'de',
        targetLang: 'en',
        metrics: [
          { key: 'bleu', name: 'bleu', options: {} },
          { key: 'chrf', name: 'chrf', options: {} },
          { key: 'ter', name: 'ter', options: {} },
          // Scored with the worker's NLI model (PODIUM_NLI_MODEL): by default the tiny generated
          // test model, whose name and checksum every NLI signature shows.
          { key: 'nli', name: 'nli', options: {} },
        ],
        combinedWeight: 0.2,
        createdById: organiser.id,
      });
      task = await tasks.taskBySlug(DEMO_SLUG);
    }
    if (!task) throw new Error(`task ${DEMO_SLUG} was not created`);
    const demoTask = task;
    let phase = demoTask.phases.find((p) => p.name === 'test');
    if (!phase) {
      phase = await tasks.createPhase({
        taskId: demoTask.id,
        name: 'test',
        opensAt: new Date('2017-05-01T00:00:00Z'),
        closesAt: new Date('2030-12-31T23:59:59Z'),
        dailyLimit: 5,
        totalLimit: 20,
        leaderboardBeforeClose: true,
      });
    }
    if (!phase.testSetId) {
      if (!testSet) throw new Error('the demo test set was not fetched'); // needsData is true here
      const salt = newCommitmentSalt();
      await tasks.uploadTestSet(
        phase.id,
        'newstest2017-da',
        testSet.instances,
        testSet.humanScores.map((s) => ({ externalId: s.externalId, systemName: s.system, score: s.score })),
        { salt, commitment: commitInstances(salt, testSet.instances.map((i) => ({ id: i.externalId, source: i.source, references: i.references }))) },
      );
      const reloaded = await tasks.phaseById(phase.id);
      if (!reloaded) throw new Error(`phase ${phase.id} vanished while seeding`);
      phase = reloaded;
      log(`seeded test set: ${testSet.instances.length} instances, ${testSet.humanScores.length} human scores`);
    }
    if (!phase.testSetId) throw new Error('the demo phase has no test set');
    const instances = await tasks.instanceIdsOf(phase.testSetId);
    const setInstances = testSet?.instances ?? [];
    const existing = new Set((await submissions.ofPhase(phase.id)).map((s) => s.systemName));
    let added = 0;
    const exported: DemoExport = { phaseId: phase.id, systems: [] };
    for (const { name: system, outputs: aligned } of testSet?.systems ?? []) {
      if (existing.has(system)) continue;
      // Outputs by segment id (the test set's instances are aligned with `aligned`).
      const bySid = new Map(setInstances.map((inst, k) => [inst.externalId, aligned[k]]));
      const teamName = `demo-${system.replace(/\..*$/, '').toLowerCase()}`; // the name up to its first dot
      const team = (await identity.teamByName(teamName)) ?? (await identity.createTeam(teamName, []));
      if (options.exportDir !== undefined) {
        const file = path.join(options.exportDir, `${system}.jsonl`);
        writeFileSync(file, setInstances.map((inst, k) => JSON.stringify({ id: inst.externalId, output: aligned[k] }) + '\n').join(''));
        exported.systems.push({ system, teamId: team.id, file });
        continue;
      }
      const outputs = instances.map((i) => {
        const text = bySid.get(i.externalId);
        if (text === undefined) throw new Error(`${system} has no output for segment ${i.externalId}`);
        return { instanceId: i.id, text };
      });
      const checksum = createHash('sha256').update(outputs.map((o) => o.text).join('\n')).digest('hex');
      await submissions.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: system, description: `WMT17 submission ${system}`, checksum, outputs, bypassLimits: true },
        (sql, id) => sendScoreJob(boss, id, 'submitted', sql),
      );
      added++;
    }
    if (options.exportDir !== undefined) {
      writeFileSync(path.join(options.exportDir, 'demo.json'), JSON.stringify(exported, null, 2) + '\n');
      log(`exported ${exported.systems.length} demo systems' outputs to ${options.exportDir}`);
      return outcome;
    }
    log(added > 0 ? `seeded ${added} demo submissions (queued for scoring)` : 'demo task already seeded');
    if (options.robustness === false) return outcome;

    // --- Robustness reports (issue #7) --------------------------------------------------------
    // Queues the built-in MENLI suite in ref mode for each of the demo task's metrics, once: only
    // when the task has no robustness report yet (an organiser's reruns are never overwritten).
    {
      const { metricConfigListSchema, ROBUSTNESS_REPORT_QUEUE, sendRobustnessJob } = await import('@podium/contracts');
      const { RobustnessRepository } = await import('@podium/db');
      const reports = new RobustnessRepository(db);
      let suiteReady = true;
      if ((await reports.countOfTask(demoTask.id)) === 0) {
        // The worker would fetch the suite on first use; fetching it here says so up front.
        try {
          await fetchAnnounced(DEMO_SUITE, data, log);
        } catch (e) {
          if (!(e instanceof DataFetchError)) throw e;
          suiteReady = false;
          log(`robustness reports not queued: ${e.message}`);
        }
      }
      if (suiteReady && (await reports.countOfTask(demoTask.id)) === 0) {
        await boss.createQueue(ROBUSTNESS_REPORT_QUEUE);
        const metrics = metricConfigListSchema.parse(demoTask.metrics).map((m) => m.key);
        await reports.queue(
          metrics.map((metric) => ({ taskId: demoTask.id, metric, suite: DEMO_SUITE, mode: 'ref' })),
          (sql, reportId, attempt) => sendRobustnessJob(boss, reportId, attempt, sql),
        );
        log(`queued robustness reports (${DEMO_SUITE}, ref) for ${metrics.join(', ')}`);
      }
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await db.$disconnect();
  }
  return outcome;
}

async function main() {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is not set');
  const exportDir = process.env['PODIUM_SEED_EXPORT_DIR'];
  if (exportDir) mkdirSync(exportDir, { recursive: true });
  const outcome = await seed(url, {}, undefined, { ...(exportDir ? { exportDir } : {}), robustness: process.env['PODIUM_SEED_ROBUSTNESS'] !== 'off' });
  const statusFile = process.env['PODIUM_SEED_STATUS_FILE'];
  if (statusFile) {
    mkdirSync(path.dirname(statusFile), { recursive: true });
    writeFileSync(statusFile, JSON.stringify(outcome) + '\n');
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.stack : String(e));
    process.exit(1);
  });
}
