/**
 * Scoring leases against a real PostgreSQL and a real pg-boss (its own schema, so no running
 * worker takes these jobs): a second concurrent run is refused, a lapsed lease is reaped into a
 * pg-boss retry that a worker fetches again with retryCount 1, a stale run writes nothing, and
 * the state machine refuses illegal transitions.
 */
import { randomUUID } from 'node:crypto';
import type { WorkerConfig } from '@podium/config';
import { SCORE_JOB_MAX_ATTEMPTS, SCORE_SUBMISSION_QUEUE, sendScoreJob } from '@podium/contracts';
import {
  createDb,
  IdentityRepository,
  Role,
  SubmissionRepository,
  TaskKind,
  TaskRepository,
  type Db,
} from '@podium/db';
import { IllegalTransitionError, LeaseHeldError, LeaseLostError, retryNote } from '@podium/domain';
import PgBoss from 'pg-boss';
import { LeaseKeeper } from './lease-keeper';
import { ScoringProcessor } from '../scoring/scoring.processor';
import { ScoringService } from '../scoring/scoring.service';
import { isolatedDatabase, type IsolatedDatabase } from '../../../../test/support/database';
import { defined } from '../../../../test/support/defined';

// Real PostgreSQL (and Nest apps) under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;

describeDb('scoring leases (real PostgreSQL, real pg-boss)', () => {
  // A database of its own: another spec's worker would reap the leases these tests let lapse.
  let own: IsolatedDatabase;
  let db: Db;
  let boss: PgBoss;
  let submissions: SubmissionRepository;
  let tasks: TaskRepository;
  let organiserId: string;
  let teamId: string;
  let phaseId: string;

  async function makeSubmission(): Promise<string> {
    const ids = await tasks.instanceIdsOf(defined(defined(await tasks.phaseById(phaseId), 'phase').testSetId, 'test set'));
    const sub = await submissions.create(
      {
        phaseId, teamId, submittedById: organiserId, systemName: `sys-${randomUUID().slice(0, 8)}`, description: '', checksum: 'x', bypassLimits: true,
        outputs: ids.map((i) => ({ instanceId: i.id, text: 'the cat' })),
      },
      (sql, id) => sendScoreJob(boss, id, 'submitted', sql),
    );
    return sub.id;
  }
  const keeper = (name: string) => new LeaseKeeper(submissions, boss, { PODIUM_WORKER_NAME: name, PODIUM_QUEUE_SCHEMA: 'pgboss_lease_spec' } as WorkerConfig);

  beforeAll(async () => {
    own = await isolatedDatabase('lease');
    db = createDb(own.url, { maxConnections: 3 });
    boss = new PgBoss({ connectionString: own.url, max: 2, schema: 'pgboss_lease_spec', supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    await boss.createQueue(SCORE_SUBMISSION_QUEUE);
    submissions = new SubmissionRepository(db);
    tasks = new TaskRepository(db);
    const identity = new IdentityRepository(db);
    const suffix = randomUUID().slice(0, 8);
    organiserId = (await identity.createUser(`org-lease-${suffix}`, Role.ORGANISER)).id;
    teamId = (await identity.createTeam(`team-lease-${suffix}`, [])).id;
    const task = await tasks.createTask({
      slug: `lease-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'chrf', name: 'chrf', options: {} }] as never, createdById: organiserId,
    });
    phaseId = (await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true,
    })).id;
    await tasks.uploadTestSet(phaseId, 'ts', [{ externalId: 'a', source: 's', references: ['the cat'] }]);
  }, 60_000);
  afterAll(async () => {
    await boss.stop({ graceful: false, wait: true });
    await db.$disconnect();
    await own.drop();
  });

  it('refuses a second concurrent scoring run of a submission whose lease is alive', async () => {
    const id = await makeSubmission();
    expect(await submissions.acquireLease(id, 'w1', null, 30)).toEqual({ kind: 'acquired', attempt: 1, token: 1n });
    await expect(submissions.acquireLease(id, 'w2', null, 30)).rejects.toBeInstanceOf(LeaseHeldError);
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).leaseOwner).toBe('w1');
  }, 30_000);

  it('lets only the lease holder save: a run whose lease was taken over writes no score', async () => {
    const id = await makeSubmission();
    const slow = await submissions.acquireLease(id, 'slow', null, 0.05);
    await new Promise((r) => setTimeout(r, 120));
    const fresh = await submissions.acquireLease(id, 'fresh', null, 30);
    if (slow.kind !== 'acquired' || fresh.kind !== 'acquired') throw new Error('expected both claims to succeed');
    const rows = [{ instanceId: (await db.instance.findFirstOrThrow({ where: { position: 0, testSet: { outputs: { some: { submissionId: id } } } } })).id, metric: 'chrf', signature: 's', value: 1 }];
    await expect(submissions.saveScores(id, rows, [{ metric: 'chrf', signature: 's', value: 1 }], { owner: 'slow', token: slow.token })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await db.scoreColumn.count({ where: { submissionId: id } })).toBe(0);
    await submissions.saveScores(id, rows, [{ metric: 'chrf', signature: 's', value: 1 }], { owner: 'fresh', token: fresh.token });
    await expect(submissions.saveScores(id, rows, [{ metric: 'chrf', signature: 's', value: 1 }], { owner: 'fresh', token: fresh.token })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await db.scoreColumn.findMany({ where: { submissionId: id }, select: { metric: true, scored: true } })).toEqual([{ metric: 'chrf', scored: 1 }]);
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).status).toBe('SCORED');
  }, 30_000);

  it('reaps a lapsed lease into a pg-boss retry, due at once, that is fetched again with retryCount 1, showing "attempt 2 of 4"', async () => {
    const id = await makeSubmission();
    const [job] = await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 50, includeMetadata: true }).then((jobs) => jobs.filter((j) => j.data.submissionId === id));
    if (!job) throw new Error('expected job to be present');
    expect(job).toBeDefined();
    expect(job.retryCount).toBe(0);
    // A worker takes the lease and "dies": it never renews.
    await submissions.acquireLease(id, 'dead-worker', job.id, 0.05);
    await new Promise((r) => setTimeout(r, 120));
    const result = await keeper('reaper').reap([id]);
    expect(result.requeued.map((r) => r.submissionId)).toEqual([id]);
    const queued = await db.submission.findUniqueOrThrow({ where: { id } });
    expect(queued).toMatchObject({ status: 'QUEUED', retryReason: 'worker-stopped', attempt: 1, leaseOwner: null });
    expect(retryNote(queued, SCORE_JOB_MAX_ATTEMPTS)).toBe('retrying after a worker stopped (attempt 2 of 4)');
    const retried = await boss.getJobById(SCORE_SUBMISSION_QUEUE, job.id, { includeArchive: false });
    expect(retried?.state).toBe('retry');
    // Due at once: the reaper skips pg-boss's backoff (1–2 s for a first retry), the worker died.
    const again = (await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 50, includeMetadata: true })).find((j) => j.id === job.id);
    expect(again?.retryCount).toBe(1);
    expect((await submissions.acquireLease(id, 'second-worker', defined(again, 'again').id, 30)).kind).toBe('acquired');
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).attempt).toBe(2);
  }, 30_000);

  it('sends a reaped submission whose job pg-boss no longer holds as a fresh job that runs before submissions queued after it', async () => {
    const id = await makeSubmission();
    const [job] = await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 50 }).then((jobs) => jobs.filter((j) => j.data.submissionId === id));
    await submissions.acquireLease(id, 'dead-worker', defined(job, 'job').id, 0.05);
    // pg-boss let go of the job (expired or completed by a late duplicate) while the lease lived.
    await boss.complete(SCORE_SUBMISSION_QUEUE, defined(job, 'job').id);
    const later = await makeSubmission();
    await new Promise((r) => setTimeout(r, 120));
    expect((await keeper('reaper').reap([id])).requeued.map((r) => r.submissionId)).toEqual([id]);
    // Workers fetch by priority, then age (boss.work's default): the requeue (sent last) comes before the later submission.
    const [next] = await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 1, priority: true });
    expect(next?.data.submissionId).toBe(id);
    const [after] = await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 1, priority: true });
    expect(after?.data.submissionId).toBe(later);
  }, 30_000);

  it("hands back at start the live lease its own name's dead process held, due at once and first in line; leaves other names' live leases, and its own claims once it holds one", async () => {
    const id = await makeSubmission();
    const [job] = await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 50, includeMetadata: true }).then((jobs) => jobs.filter((j) => j.data.submissionId === id));
    const name = `pod-${randomUUID().slice(0, 8)}`;
    // The first process of `name` holds a lease good for a minute, then dies (SIGKILL: no hand-back).
    await submissions.acquireLease(id, name, defined(job, 'job').id, 60);
    const later = await makeSubmission();
    // Another worker's reaper: the lease has not lapsed, so it is not taken.
    expect((await keeper(`other-${name}`).reap({ onlyIds: [id], orphans: true })).requeued).toEqual([]);
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).status).toBe('SCORING');
    // The restarted process of the same name, before it holds anything: handed back.
    const restarted = keeper(name);
    expect((await restarted.reap({ onlyIds: [id], orphans: true })).requeued.map((r) => r.submissionId)).toEqual([id]);
    expect(await db.submission.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'QUEUED', retryReason: 'worker-stopped', leaseOwner: null });
    // pg-boss's retry of the job, due now with the requeue priority: fetched before the later submission.
    const [next] = await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 1, priority: true, includeMetadata: true });
    expect(next).toMatchObject({ id: defined(job, 'job').id, retryCount: 1, data: { submissionId: id } });
    // Once the process holds a lease, asking for orphans takes back nothing of its own.
    expect((await restarted.acquire(id, defined(next, 'next').id)).kind).toBe('acquired');
    expect((await restarted.reap({ onlyIds: [id], orphans: true })).requeued).toEqual([]);
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).leaseOwner).toBe(name);
    expect((await db.submission.findUniqueOrThrow({ where: { id: later } })).status).toBe('QUEUED');
  }, 30_000);

  it('retries at once a job fetched by a worker that died before claiming its submission (active longer than the ttl, submission still QUEUED); leaves a fresh fetch alone', async () => {
    const id = await makeSubmission();
    const [job] = await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 50, includeMetadata: true }).then((jobs) => jobs.filter((j) => j.data.submissionId === id));
    // Fetched just now: its worker may be about to claim it.
    await keeper('reaper').reap([id]);
    expect((await boss.getJobById(SCORE_SUBMISSION_QUEUE, defined(job, 'job').id))?.state).toBe('active');
    // Fetched a minute ago (ttl 8 s) and never claimed: its worker died in between.
    await boss.getDb().executeSql(`UPDATE pgboss_lease_spec.job SET started_on = now() - interval '60 seconds' WHERE id = $1::uuid`, [defined(job, 'job').id]);
    await keeper('reaper').reap([id]);
    const [again] = await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 1, priority: true, includeMetadata: true });
    expect(again).toMatchObject({ id: defined(job, 'job').id, retryCount: 1, data: { submissionId: id } });
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).status).toBe('QUEUED');
  }, 30_000);

  it('fails the submission with a reason when its worker stops during the last attempt', async () => {
    const id = await makeSubmission();
    await db.submission.update({ where: { id }, data: { attempt: SCORE_JOB_MAX_ATTEMPTS - 1 } });
    await submissions.acquireLease(id, 'dead-worker', null, 0.05);
    await new Promise((r) => setTimeout(r, 120));
    const result = await keeper('reaper').reap([id]);
    expect(result.failed.map((r) => r.submissionId)).toEqual([id]);
    const failed = await db.submission.findUniqueOrThrow({ where: { id } });
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/stopped during attempt 4, the last one/);
  }, 30_000);

  it('refuses illegal transitions with a domain error: SCORED → FAILED, and a rescore or a direct write during a live run', async () => {
    const id = await makeSubmission();
    const lease = await submissions.acquireLease(id, 'w', null, 30);
    if (lease.kind !== 'acquired') throw new Error('expected the claim to succeed');
    const holder = { owner: 'w', token: lease.token };
    await expect(submissions.requeue([id], async () => undefined)).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(submissions.saveScores(id, [], [])).rejects.toBeInstanceOf(LeaseHeldError);
    await submissions.saveScores(id, [], [], holder);
    await expect(submissions.markFailed(id, 'late')).rejects.toBeInstanceOf(IllegalTransitionError);
    expect(await submissions.markFailed(id, 'late', holder)).toBe(false);
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).status).toBe('SCORED');
    expect(await submissions.requeue([id], async () => undefined)).toBe(1);
  }, 30_000);

  it('hands a submission back on shutdown: QUEUED with its job retried by pg-boss', async () => {
    const id = await makeSubmission();
    const [job] = (await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 50, includeMetadata: true })).filter((j) => j.data.submissionId === id);
    if (!job) throw new Error('expected job to be present');
    const k = keeper('stopping-worker');
    expect((await k.acquire(id, job.id)).kind).toBe('acquired');
    const handed = await submissions.releaseLease(id, defined(k.holder(id), 'holder'), 'shutdown', async (sql) => {
      await boss.fail(SCORE_SUBMISSION_QUEUE, job.id, { message: 'handed back' }, { db: sql });
    });
    expect(handed).toBe(true);
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).status).toBe('QUEUED');
    expect((await boss.getJobById(SCORE_SUBMISSION_QUEUE, job.id, { includeArchive: false }))?.state).toBe('retry');
  }, 30_000);

  it('retries a job whose scoring crashed through real pg-boss: handed back, failed by id, fetched again with retryCount 1', async () => {
    const id = await makeSubmission();
    const k = keeper('crashing-worker');
    const service = new ScoringService(submissions, null, k);
    // A transient crash after the lease was taken (the disk, the network): not a permanent error.
    jest.spyOn(service, 'scoreBatch').mockImplementation(async (ids, jobIds = []) => {
      await k.acquire(defined(ids[0], 'ids[0]'), jobIds[0] ?? null);
      return [new Error('disk on fire')];
    });
    const processor = new ScoringProcessor(boss, { PODIUM_WORKER_NAME: 'crashing-worker' } as WorkerConfig, service);
    const [job] = (await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 50, includeMetadata: true })).filter((j) => j.data.submissionId === id);
    if (!job) throw new Error('expected job to be present');
    await processor.handleBatch([job]);
    expect(await db.submission.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'QUEUED', retryReason: 'error', attempt: 1, leaseOwner: null });
    expect(retryNote(await db.submission.findUniqueOrThrow({ where: { id } }), SCORE_JOB_MAX_ATTEMPTS)).toBe('retrying after an error (attempt 2 of 4)');
    const stored = await boss.getJobById(SCORE_SUBMISSION_QUEUE, job.id, { includeArchive: false });
    expect(stored).toMatchObject({ state: 'retry', retryLimit: 3, retryDelay: 1, retryBackoff: true });
    let again: PgBoss.JobWithMetadata<{ submissionId: string }> | undefined;
    const deadline = Date.now() + 10_000;
    while (!again && Date.now() < deadline) {
      again = (await boss.fetch<{ submissionId: string }>(SCORE_SUBMISSION_QUEUE, { batchSize: 50, includeMetadata: true })).find((j) => j.id === job.id);
      if (!again) await new Promise((r) => setTimeout(r, 200));
    }
    expect(again?.retryCount).toBe(1);
  }, 30_000);
});
