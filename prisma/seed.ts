/**
 * Seeds the demo task: WMT17 German→English, the 560 segments with segment-level human DA
 * scores (data/wmt17-de-en, MIT), its reference, and the 11 systems' outputs as submissions of
 * 11 demo teams, queued for the worker. Idempotent: running it again adds nothing that exists.
 * Also makes sure an organiser account exists and, when PODIUM_ORGANISER_TOKEN_FILE names a
 * file (npm run up: .data/organiser-token), that the file holds a valid token for it.
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sendScoreJob, SCORE_SUBMISSION_QUEUE, startQueue } from '@podium/contracts';
import { parseDaSegLevel } from '@podium/robustness';
import { createDb, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository } from '@podium/db';
import PgBoss from 'pg-boss';

const root = path.resolve(__dirname, '..');
const dataDir = path.join(root, 'data', 'wmt17-de-en');
export const DEMO_SLUG = 'wmt17-de-en';

function lines(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** Segment ids (1-based) and human scores per system from da-seglevel.csv. */
export function readDa(): { sids: number[]; scores: { sid: number; system: string; score: number }[] } {
  const judgements = parseDaSegLevel(readFileSync(path.join(dataDir, 'da-seglevel.csv'), 'utf8'));
  // Identical outputs of several systems were judged once ("C-3MA.4958+KIT.4951").
  const scores = judgements.flatMap((j) => j.systems.map((system) => ({ sid: j.sid, system, score: j.human })));
  const sids = [...new Set(scores.map((s) => s.sid))].sort((a, b) => a - b);
  return { sids, scores };
}

async function main() {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is not set');
  const db = createDb(url, { maxConnections: 3 });
  const identity = new IdentityRepository(db);
  const tasks = new TaskRepository(db);
  const submissions = new SubmissionRepository(db);
  const boss = new PgBoss({ connectionString: url, max: 2 });
  boss.on('error', (e: unknown) => console.error(`pg-boss: ${String(e)}`));
  await startQueue(boss);
  await boss.createQueue(SCORE_SUBMISSION_QUEUE);
  try {
    const organiser = (await identity.userByName('organiser')) ?? (await identity.createUser('organiser', Role.ORGANISER));
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
    let phase = task!.phases.find((p) => p.name === 'test');
    if (!phase) {
      phase = await tasks.createPhase({
        taskId: task!.id,
        name: 'test',
        opensAt: new Date('2017-05-01T00:00:00Z'),
        closesAt: new Date('2030-12-31T23:59:59Z'),
        dailyLimit: 5,
        totalLimit: 20,
        leaderboardBeforeClose: true,
      });
    }
    if (!phase.testSetId) {
      const { sids, scores } = readDa();
      const source = lines(path.join(dataDir, 'source.de'));
      const reference = lines(path.join(dataDir, 'reference.en'));
      const instances = sids.map((sid) => ({ externalId: String(sid), source: source[sid - 1]!, references: [reference[sid - 1]!] }));
      await tasks.uploadTestSet(
        phase.id,
        'newstest2017-da',
        instances,
        scores.map((s) => ({ externalId: String(s.sid), systemName: s.system, score: s.score })),
      );
      phase = (await tasks.phaseById(phase.id))!;
      console.log(`seeded test set: ${instances.length} instances, ${scores.length} human scores`);
    }
    const instances = await tasks.instanceIdsOf(phase.testSetId!);
    const existing = new Set((await submissions.ofPhase(phase.id)).map((s) => s.systemName));
    const systemFiles = readdirSync(path.join(dataDir, 'systems')).filter((f) => f.endsWith('.en')).sort();
    let added = 0;
    for (const file of systemFiles) {
      const system = file.replace(/\.en$/, '');
      if (existing.has(system)) continue;
      const output = lines(path.join(dataDir, 'systems', file));
      const teamName = `demo-${system.split('.')[0]!.toLowerCase()}`;
      const team = (await identity.teamByName(teamName)) ?? (await identity.createTeam(teamName, []));
      const outputs = instances.map((i) => ({ instanceId: i.id, text: output[Number(i.externalId) - 1]! }));
      const checksum = createHash('sha256').update(outputs.map((o) => o.text).join('\n')).digest('hex');
      await submissions.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: system, description: `WMT17 submission ${system}`, checksum, outputs, bypassLimits: true },
        (sql, id) => sendScoreJob(boss, id, 'submitted', sql),
      );
      added++;
    }
    console.log(added > 0 ? `seeded ${added} demo submissions (queued for scoring)` : 'demo task already seeded');

    // --- Robustness reports (issue #7) --------------------------------------------------------
    // Queues the built-in MENLI suite in ref mode for each of the demo task's metrics, once: only
    // when the task has no robustness report yet (an organiser's reruns are never overwritten).
    {
      const { metricConfigListSchema, ROBUSTNESS_REPORT_QUEUE, sendRobustnessJob } = await import('@podium/contracts');
      const { RobustnessRepository } = await import('@podium/db');
      const reports = new RobustnessRepository(db);
      if ((await reports.countOfTask(task!.id)) === 0) {
        await boss.createQueue(ROBUSTNESS_REPORT_QUEUE);
        const metrics = metricConfigListSchema.parse(task!.metrics).map((m) => m.key);
        await reports.queue(
          metrics.map((metric) => ({ taskId: task!.id, metric, suite: 'builtin:wmt20-de', mode: 'ref' })),
          (sql, reportId, attempt) => sendRobustnessJob(boss, reportId, attempt, sql),
        );
        console.log(`queued robustness reports (builtin:wmt20-de, ref) for ${metrics.join(', ')}`);
      }
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await db.$disconnect();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.stack : String(e));
    process.exit(1);
  });
}
