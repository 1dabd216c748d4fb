/**
 * The scoring service against a real PostgreSQL (the one `npm test` starts): scores are stored
 * once per (submission, metric) as a column in instance order with the corpus metrics'
 * statistics, a rerun replaces them, and permanent failures store their reason on the submission.
 */
import { randomUUID } from 'node:crypto';
import { createDb, decodeStats, decodeValues, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import PgBoss from 'pg-boss';
import { ensureQueue, SCORE_JOB_MAX_ATTEMPTS, SCORE_SUBMISSION_QUEUE, sendScoreJob } from '@podium/contracts';
import type { WorkerConfig } from '@podium/config';
import { ScoringProcessor } from './scoring.processor';
import { PermanentScoringError, ScoringService } from './scoring.service';
import { defaultModelsDir, WorkerNliScorer } from '../nli/nli.adapter';
import { LeaseKeeper } from '../leases/lease-keeper';
import { defined } from '../../../../test/support/defined';

// Real PostgreSQL (and Nest apps) under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;

describeDb('ScoringService (real PostgreSQL)', () => {
  let db: Db;
  let submissions: SubmissionRepository;
  let tasks: TaskRepository;
  let organiserId: string;
  let teamId: string;
  const keeper = (name = `test-worker-${randomUUID().slice(0, 6)}`, boss: unknown = {}) =>
    new LeaseKeeper(submissions, boss as PgBoss, { PODIUM_WORKER_NAME: name } as WorkerConfig);

  const refs = ['the cat sat on the mat', 'a quick brown fox jumps', 'five soldiers were wounded'];
  const hyps = ['the cat sat on a mat', 'the quick brown fox jumped', 'fifty soldiers were killed'];

  async function makeSubmission(metrics: unknown) {
    const suffix = randomUUID().slice(0, 8);
    const task = await tasks.createTask({
      slug: `worker-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: metrics as never, createdById: organiserId,
    });
    const phase = await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 5, totalLimit: 5, leaderboardBeforeClose: true,
    });
    await tasks.uploadTestSet(phase.id, 'ts', refs.map((r, i) => ({ externalId: `s${i}`, source: `quelle ${i}`, references: [r] })));
    const ids = await tasks.instanceIdsOf(defined(defined(await tasks.phaseById(phase.id), 'phase').testSetId, 'test set'));
    const sub = await submissions.create(
      { phaseId: phase.id, teamId, submittedById: organiserId, systemName: 'sys', description: '', checksum: 'x', outputs: ids.map((i, k) => ({ instanceId: i.id, text: defined(hyps[k], 'hyps[k]') })) },
      async () => undefined,
    );
    return sub.id;
  }

  beforeAll(async () => {
    db = createDb(defined(url, 'DATABASE_URL'), { maxConnections: 3 });
    submissions = new SubmissionRepository(db);
    tasks = new TaskRepository(db);
    const identity = new IdentityRepository(db);
    const suffix = randomUUID().slice(0, 8);
    organiserId = (await identity.createUser(`org-${suffix}`, Role.ORGANISER)).id;
    teamId = (await identity.createTeam(`team-${suffix}`, [])).id;
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it('stores one BLEU and one chrF column of a score per instance with signatures and statistics; BLEU equals its hand count', async () => {
    const id = await makeSubmission([
      { key: 'bleu', name: 'bleu', options: {} },
      { key: 'chrf', name: 'chrf', options: {} },
    ]);
    const service = new ScoringService(submissions, null, keeper());
    const outcome = await service.score(id);
    expect(outcome).toEqual({ kind: 'scored', instances: 3, metrics: ['bleu', 'chrf'], attempt: 1, phaseId: expect.any(String) });
    const columns = await db.scoreColumn.findMany({ where: { submissionId: id }, orderBy: { metric: 'asc' } });
    expect(columns.map((c) => [c.metric, c.count, c.scored, c.values.length])).toEqual([['bleu', 3, 3, 24], ['chrf', 3, 3, 24]]);
    const [bleu, chrf] = columns;
    if (!bleu) throw new Error('expected bleu to be present');
    if (!chrf) throw new Error('expected chrf to be present');
    // BLEU by its definition (Papineni et al. 2002; sacreBLEU's 13a tokens are the words here),
    // counted by hand. Sentence 1: n-gram matches 5/6, 3/5, 2/4, 1/3, equal lengths (BP = 1),
    // no zero count so no smoothing: 100·(5/6·3/5·2/4·1/3)^¼. Corpus: matches summed over the
    // three pairs 10/15, 6/12, 3/9, 1/6, 15 = 15 tokens: 100·(10/15·6/12·3/9·1/6)^¼.
    expect(decodeValues(bleu.values)[0]).toBeCloseTo(100 * ((5 / 6) * (3 / 5) * (2 / 4) * (1 / 3)) ** 0.25, 9); // 53.7285
    expect(bleu.signature).toMatch(/^bleu\|nrefs:1\|case:mixed\|eff:yes\|tok:13a\|smooth:exp\|version:/);
    // Its statistics, sacreBLEU's row [hyp length, ref length, matches 1–4, totals 1–4]: the same hand count.
    expect(decodeStats(defined(bleu.stats, 'BLEU statistics'))[0]).toEqual([6, 6, 5, 3, 2, 1, 6, 5, 4, 3]);
    // chrF: a hypothesis sharing words with its reference scores strictly inside (0, 100).
    for (const v of decodeValues(chrf.values)) expect(v > 0 && v < 100).toBe(true);
    expect(decodeStats(defined(chrf.stats, 'chrF statistics'))).toHaveLength(3);
    const corpus = await db.corpusScore.findMany({ where: { submissionId: id }, orderBy: { metric: 'asc' } });
    expect(corpus.map((c) => c.metric)).toEqual(['bleu', 'chrf']);
    expect(defined(corpus[0], 'corpus[0]').value).toBeCloseTo(100 * ((10 / 15) * (6 / 12) * (3 / 9) * (1 / 6)) ** 0.25, 9); // 36.8894
    expect(defined(corpus[0], 'corpus[0]').signature).toMatch(/^bleu\|nrefs:1\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:/);
    const sub = await db.submission.findUniqueOrThrow({ where: { id } });
    expect(sub.status).toBe('SCORED');
    expect(sub.progressDone).toBe(3);
  });

  it('replaces scores on a rerun instead of duplicating them', async () => {
    const id = await makeSubmission([{ key: 'chrf', name: 'chrf', options: {} }]);
    const service = new ScoringService(submissions, null, keeper());
    await service.score(id);
    await db.submission.update({ where: { id }, data: { status: 'QUEUED' } });
    await service.score(id);
    expect((await db.scoreColumn.findMany({ where: { submissionId: id } })).map((c) => [c.metric, c.count])).toEqual([['chrf', 3]]);
    expect(await db.corpusScore.count({ where: { submissionId: id } })).toBe(1);
  });

  it('fails an NLI metric permanently with a clear reason when the worker has no model', async () => {
    const id = await makeSubmission([{ key: 'nli', name: 'nli', options: {} }]);
    const service = new ScoringService(submissions, null, keeper());
    const error = await service.score(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermanentScoringError);
    expect((error as Error).message).toMatch(/needs an NLI model/);
  });

  it('marks the submission failed on the last retry of a crashing job and asks pg-boss to retry before that', async () => {
    const id = await makeSubmission([{ key: 'bleu', name: 'bleu', options: {} }]);
    const crashing = { scoreBatch: async () => [new Error('disk on fire')], handBack: async () => false, fail: (sid: string, r: string) => submissions.markFailed(sid, r) } as unknown as ScoringService;
    const boss = { fail: jest.fn() };
    const processor = new ScoringProcessor(boss as unknown as PgBoss, { PODIUM_WORKER_NAME: 'w' } as WorkerConfig, crashing);
    const job = (retryCount: number) => ({ id: 'j', name: 'q', data: { v: 1, submissionId: id, reason: 'submitted' }, retryCount, retryLimit: 3 }) as unknown as PgBoss.JobWithMetadata<unknown>;
    await processor.handleBatch([job(0)]);
    expect(boss.fail).toHaveBeenCalledWith(SCORE_SUBMISSION_QUEUE, ['j']);
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).status).toBe('QUEUED');
    boss.fail.mockClear();
    await processor.handleBatch([job(3)]);
    expect(boss.fail).not.toHaveBeenCalled();
    const failed = await db.submission.findUniqueOrThrow({ where: { id } });
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/after 4 attempts: disk on fire/);
  });

  it('retries a crashing job through real pg-boss until its retry limit, then fails the submission once', async () => {
    // pg-boss on a schema of its own (no other suite's worker polls it), with the contract's
    // send options (retryLimit 3, retryDelay 1 s doubling): the job comes back with retryCount
    // 0, 1, 2, 3 and pg-boss marks it failed after the last attempt.
    const boss = new PgBoss({ connectionString: defined(url, 'DATABASE_URL'), schema: `pgboss_retry_${randomUUID().slice(0, 8)}`, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      await ensureQueue(boss, SCORE_SUBMISSION_QUEUE);
      const id = await makeSubmission([{ key: 'bleu', name: 'bleu', options: {} }]);
      const service = new ScoringService(submissions, null, keeper(undefined, boss));
      jest.spyOn(service, 'scoreBatch').mockImplementation(async (ids: string[]) => ids.map(() => new Error('disk on fire')));
      const processor = new ScoringProcessor(boss, { PODIUM_WORKER_NAME: 'w' } as WorkerConfig, service);
      await sendScoreJob(boss, id, 'submitted');
      const attempts: number[] = [];
      let jobId = '';
      const deadline = Date.now() + 45_000;
      while (Date.now() < deadline && (await db.submission.findUniqueOrThrow({ where: { id } })).status !== 'FAILED') {
        const jobs = await boss.fetch<unknown>(SCORE_SUBMISSION_QUEUE, { batchSize: 1, includeMetadata: true });
        if (jobs.length === 0) {
          await new Promise((r) => setTimeout(r, 200));
          continue;
        }
        jobId = defined(jobs[0], 'jobs[0]').id;
        attempts.push(defined(jobs[0], 'jobs[0]').retryCount);
        await processor.handleBatch(jobs);
      }
      expect(attempts).toEqual([0, 1, 2, 3]);
      expect(attempts).toHaveLength(SCORE_JOB_MAX_ATTEMPTS);
      const failed = await db.submission.findUniqueOrThrow({ where: { id } });
      expect(failed.status).toBe('FAILED');
      expect(failed.error).toMatch(/after 4 attempts: disk on fire/);
      // The last attempt fails the submission and asks for no retry: no job comes back.
      expect(await boss.fetch(SCORE_SUBMISSION_QUEUE)).toEqual([]);
      expect((await boss.getJobById(SCORE_SUBMISSION_QUEUE, jobId))?.retryCount).toBe(3);
    } finally {
      await boss.stop({ graceful: false, wait: true, timeout: 5_000 });
    }
  }, 90_000);

  it('drops a job whose payload does not match the v1 schema without touching any submission', async () => {
    const service = { scoreBatch: jest.fn() } as unknown as ScoringService;
    const processor = new ScoringProcessor({} as PgBoss, { PODIUM_WORKER_NAME: 'w' } as WorkerConfig, service);
    await processor.handleBatch([{ id: 'j', data: { v: 2, submissionId: 'nope' }, retryCount: 0, retryLimit: 3 } as unknown as PgBoss.JobWithMetadata<unknown>]);
    expect((service as unknown as { scoreBatch: jest.Mock }).scoreBatch).not.toHaveBeenCalled();
  });

  it('scores NLI for a batch of submissions in shared model calls with the same values as one by one', async () => {
    const config = { PODIUM_NLI_PROVIDER: 'cpu', PODIUM_NLI_THREADS: 0, PODIUM_NLI_BATCH_SIZE: 4, PODIUM_NLI_MODEL: 'test-nli-tiny' } as WorkerConfig;
    const nli = new WorkerNliScorer(config, defaultModelsDir());
    const calls = jest.spyOn(nli, 'score');
    const metrics = [
      { key: 'nli', name: 'nli', options: {} },
      { key: 'bleu', name: 'bleu', options: {} },
    ];
    const together = [await makeSubmission(metrics), await makeSubmission(metrics)];
    const service = new ScoringService(submissions, nli, keeper());
    const outcomes = await service.scoreBatch(together);
    expect(outcomes.map((o) => (o instanceof Error ? o.message : o.kind))).toEqual(['scored', 'scored']);
    expect(calls).toHaveBeenCalledTimes(1);
    expect(defined(calls.mock.calls[0], 'calls.mock.calls[0]')[2]).toHaveLength(6);
    const alone = await makeSubmission(metrics);
    await service.score(alone);
    const nliOf = async (id: string) => [...decodeValues((await db.scoreColumn.findUniqueOrThrow({ where: { submissionId_metric: { submissionId: id, metric: 'nli' } } })).values)];
    const reference = await nliOf(alone);
    for (const id of together) {
      const values = await nliOf(id);
      values.forEach((v, i) => expect(v).toBeCloseTo(defined(reference[i], 'reference[i]'), 6));
    }
    const corpus = await db.corpusScore.findFirstOrThrow({ where: { submissionId: defined(together[1], 'together[1]'), metric: 'nli' } });
    expect(corpus.value).toBeCloseTo(reference.reduce((a, b) => a + b, 0) / reference.length, 9);
    expect(corpus.signature).toMatch(/^nli\|model:test-nli-tiny@/);
  });

  it('settles each job of a batch on its own: a permanent failure fails only its submission', async () => {
    const good = await makeSubmission([{ key: 'bleu', name: 'bleu', options: {} }]);
    const noModel = await makeSubmission([{ key: 'nli', name: 'nli', options: {} }]);
    const boss = { fail: jest.fn() } as unknown as PgBoss;
    const processor = new ScoringProcessor(boss, { PODIUM_WORKER_NAME: 'w' } as WorkerConfig, new ScoringService(submissions, null, keeper()));
    const job = (id: string) => ({ id: randomUUID(), data: { v: 1, submissionId: id, reason: 'submitted' }, retryCount: 0, retryLimit: 3 }) as unknown as PgBoss.JobWithMetadata<unknown>;
    await processor.handleBatch([job(good), job(noModel)]);
    expect((await db.submission.findUniqueOrThrow({ where: { id: good } })).status).toBe('SCORED');
    const failed = await db.submission.findUniqueOrThrow({ where: { id: noModel } });
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/needs an NLI model/);
    expect((boss as unknown as { fail: jest.Mock }).fail).not.toHaveBeenCalled();
  });
});
