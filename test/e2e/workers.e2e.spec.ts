/**
 * Several scoring workers share one queue (issue #5): two real worker processes against one
 * PostgreSQL score 10 submissions; every instance is scored exactly once per metric, both
 * workers take jobs, and the tiny NLI test model's behaviour shows through the whole pipeline
 * (a faithful output scores higher than one that negates the reference or changes its numbers).
 */
import { randomUUID } from 'node:crypto';
import { SCORE_SUBMISSION_QUEUE, sendScoreJob } from '@podium/contracts';
import { createDb, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import PgBoss from 'pg-boss';
import { databaseUrl, startApp, waitFor, type RunningApp } from './support/processes';
import { defined } from '../support/defined';

const REFS = [
  'the committee approved the new budget on monday',
  'five soldiers were wounded in the attack',
  'the museum opens at nine in the morning',
  'she bought three apples and two pears',
  'the river flooded the village last spring',
];
const FAITHFUL = REFS;
const NEGATED = [
  'the committee did not approve the new budget on monday',
  'five soldiers were not wounded in the attack',
  'the museum does not open at nine in the morning',
  'she did not buy three apples and two pears',
  'the river never flooded the village last spring',
];
const NUMBERS = [
  'the committee approved the new budget on monday',
  '50000 soldiers were wounded in the attack',
  'the museum opens at ten in the morning',
  'she bought 30 apples and 20 pears',
  'the river flooded the village last spring',
];

const QUEUE_SCHEMA = 'pgboss_two_workers';

describe('two scoring workers on one queue', () => {
  let db: Db;
  let boss: PgBoss;
  const workers: RunningApp[] = [];
  const submissionIds: string[] = [];
  const kinds = new Map<string, 'faithful' | 'negated' | 'numbers'>();

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 3 });
    // A queue of this test's own: workers of other suites (platform) must not take its jobs.
    boss = new PgBoss({ connectionString: url, max: 2, schema: QUEUE_SCHEMA });
    boss.on('error', () => undefined);
    await boss.start();
    await boss.createQueue(SCORE_SUBMISSION_QUEUE);
    const identity = new IdentityRepository(db);
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const suffix = randomUUID().slice(0, 8);
    const organiser = await identity.createUser(`org-${suffix}`, Role.ORGANISER);
    const team = await identity.createTeam(`team-${suffix}`, []);
    const task = await tasks.createTask({
      slug: `two-workers-${suffix}`, title: 'two workers', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id,
      metrics: [
        { key: 'nli', name: 'nli', options: { model: 'test-nli-tiny' } },
        { key: 'chrf', name: 'chrf', options: {} },
      ],
    });
    const phase = await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 100, totalLimit: 100, leaderboardBeforeClose: true,
    });
    // 40 instances: the five sentences repeated, so each job takes a noticeable moment.
    const instances = Array.from({ length: 40 }, (_, i) => ({ externalId: `i${i}`, source: `quelle ${i}`, references: [defined(REFS[i % 5])] }));
    await tasks.uploadTestSet(phase.id, 'ts', instances);
    const ids = await tasks.instanceIdsOf(defined(defined((await tasks.phaseById(phase.id))).testSetId));
    for (let s = 0; s < 10; s++) {
      const kind = s % 3 === 0 ? 'faithful' : s % 3 === 1 ? 'negated' : 'numbers';
      const texts = kind === 'faithful' ? FAITHFUL : kind === 'negated' ? NEGATED : NUMBERS;
      const sub = await submissions.create(
        {
          phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: `sys-${s}-${kind}`, description: '', checksum: String(s),
          outputs: ids.map((inst, i) => ({ instanceId: inst.id, text: defined(texts[i % 5]) })), bypassLimits: true,
        },
        (sql, id) => sendScoreJob(boss, id, 'submitted', sql),
      );
      submissionIds.push(sub.id);
      kinds.set(sub.id, kind);
    }
    for (const name of ['worker-a', 'worker-b']) {
      workers.push(startApp('apps/worker/src/main.ts', { DATABASE_URL: url, PODIUM_QUEUE_SCHEMA: QUEUE_SCHEMA, PODIUM_WORKER_NAME: name, PODIUM_WORKER_POLL_SECONDS: '0.5' }));
    }
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await boss?.stop({ graceful: false, wait: true });
    await db?.$disconnect();
  });

  // Both cases read the scores of the jobs queued in beforeAll: each waits for them itself.
  let scored: Promise<unknown> | undefined;
  const allScored = () =>
    (scored ??= waitFor(
      'all submissions scored',
      async () => (await db.submission.count({ where: { id: { in: submissionIds }, status: 'SCORED' } })) === 10,
      150_000,
    ).catch((e: unknown) => {
      throw new Error(`${String(e)}\nworker logs:\n${workers.map((w) => w.logs.join('')).join('\n---\n')}`);
    }));

  it('scores all 10 submissions, each instance exactly once per metric, with both workers taking jobs', async () => {
    await allScored();
    // One column per (submission, metric), each with a score for every one of the 40 instances.
    const columns = await db.scoreColumn.findMany({ where: { submissionId: { in: submissionIds } }, select: { count: true, scored: true } });
    expect(columns).toHaveLength(10 * 2);
    expect(columns.every((c) => c.count === 40 && c.scored === 40)).toBe(true);
    // Other tests may share the queue: count only this test's submissions.
    const ours = new Set(submissionIds);
    const tookJobs = workers.map((w) => [...w.logs.join('').matchAll(/scored submission ([0-9a-f-]{36})/g)].filter((m) => ours.has(defined(m[1]))).length);
    expect(tookJobs.reduce((a, b) => a + b, 0)).toBe(10);
    expect(tookJobs.every((n) => n >= 1)).toBe(true);
  });

  it('ranks faithful outputs above negated and number-changed ones under NLI, with the model checksum in the signature', async () => {
    await allScored();
    const corpus = await db.corpusScore.findMany({ where: { submissionId: { in: submissionIds }, metric: 'nli' } });
    expect(corpus).toHaveLength(10);
    for (const c of corpus) expect(c.signature).toMatch(/^nli\|model:test-nli-tiny@[0-9a-f]{12}\|formula:e\|dir:<->\|refs:max\|.*ep:cpu/);
    const byKind = (k: string) => corpus.filter((c) => kinds.get(c.submissionId) === k).map((c) => c.value);
    const minFaithful = Math.min(...byKind('faithful'));
    expect(Math.max(...byKind('negated'))).toBeLessThan(minFaithful);
    expect(Math.max(...byKind('numbers'))).toBeLessThan(minFaithful);
  });
});
