/**
 * Fencing tokens (docs/adr/0017) against a real PostgreSQL and a real pg-boss (its own schema):
 * worker A claims a submission or a robustness report, its lease lapses (advanced in the
 * database, as a partition would let it lapse), worker B claims it again and writes; A's late
 * write is refused, logged (`fencing.refused`) and counted, B's lands, and no score is stored
 * twice. Reaped report leases go back to pg-boss as retries due at once.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { ensureQueue, QUEUE_POLICY, ROBUSTNESS_REPORT_QUEUE, sendRobustnessJob } from '@podium/contracts';
import { createDb, IdentityRepository, LeaderboardRepository, RobustnessRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { LeaseLostError } from '@podium/domain';
import { Pool } from 'pg';
import PgBoss from 'pg-boss';
import { LeaderboardProcessor } from '../leaderboard/leaderboard.processor';
import { LeaseKeeper } from './lease-keeper';
import { RobustnessService } from '../robustness/robustness.service';
import { ScoringService } from '../scoring/scoring.service';
import { isolatedDatabase, type IsolatedDatabase } from '../../../../test/support/database';
import { defined } from '../../../../test/support/defined';

// Real PostgreSQL under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;
const SCHEMA = 'pgboss_fencing_spec';

describeDb('fencing tokens (real PostgreSQL, real pg-boss)', () => {
  // A database of its own: another spec's worker would reap the leases these tests let lapse.
  let own: IsolatedDatabase;
  let db: Db;
  let boss: PgBoss;
  let tasks: TaskRepository;
  let organiserId: string;
  let teamId: string;
  let phaseId: string;
  let taskId: string;
  // English references with numbers and negations, so that a generated robustness suite has rows.
  const refs = ['He said the company sold 300 cars in 2019.', 'She does not like the new policy.', 'They paid $45 for the tickets.', 'The team won 3 of its 5 games.'];

  /** A worker of its own: repositories (so one worker's spies leave the other alone) and a lease keeper. */
  function worker(name: string) {
    const submissions = new SubmissionRepository(db);
    const reports = new RobustnessRepository(db);
    const leases = new LeaseKeeper(submissions, boss, { PODIUM_WORKER_NAME: name, PODIUM_QUEUE_SCHEMA: SCHEMA } as WorkerConfig, reports);
    return { name, submissions, reports, leases, scoring: new ScoringService(submissions, null, leases), robustness: new RobustnessService(reports, null, {}, leases) };
  }

  /** Lets every lease on the row lapse, as one not renewed for a ttl would. */
  const lapse = (table: 'submission' | 'robustness_report', id: string) =>
    table === 'submission'
      ? db.$executeRaw`UPDATE submission SET lease_expires_at = now() - interval '1 second' WHERE id = ${id}::uuid`
      : db.$executeRaw`UPDATE robustness_report SET lease_expires_at = now() - interval '1 second' WHERE id = ${id}::uuid`;

  async function makeSubmission(): Promise<string> {
    const ids = await tasks.instanceIdsOf(defined(defined(await tasks.phaseById(phaseId), 'phase').testSetId, 'test set'));
    const sub = await new SubmissionRepository(db).create(
      { phaseId, teamId, submittedById: organiserId, systemName: `sys-${randomUUID().slice(0, 8)}`, description: '', checksum: 'x', bypassLimits: true, outputs: ids.map((i, k) => ({ instanceId: i.id, text: refs[k] ?? '' })) },
      async () => undefined,
    );
    return sub.id;
  }

  beforeAll(async () => {
    own = await isolatedDatabase('fencing');
    db = createDb(own.url, { maxConnections: 4 });
    boss = new PgBoss({ connectionString: own.url, max: 2, schema: SCHEMA, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    await ensureQueue(boss, ROBUSTNESS_REPORT_QUEUE, 3, 100, () => undefined);
    tasks = new TaskRepository(db);
    const identity = new IdentityRepository(db);
    const suffix = randomUUID().slice(0, 8);
    organiserId = (await identity.createUser(`org-fence-${suffix}`, Role.ORGANISER)).id;
    teamId = (await identity.createTeam(`team-fence-${suffix}`, [])).id;
    const task = await tasks.createTask({
      slug: `fence-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'chrf', name: 'chrf', options: {} }] as never, createdById: organiserId,
    });
    taskId = task.id;
    phaseId = (await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true,
    })).id;
    await tasks.uploadTestSet(phaseId, 'ts', refs.map((r, i) => ({ externalId: `s${i}`, source: `quelle ${i}`, references: [r] })));
  });
  afterAll(async () => {
    await boss.stop({ graceful: false, wait: true });
    await db.$disconnect();
    await own.drop();
  });
  afterEach(() => jest.restoreAllMocks());

  it("refuses worker A's late score write after B claimed the submission again: logged, counted, B's scores land once", async () => {
    const id = await makeSubmission();
    const a = worker(`fence-a-${randomUUID().slice(0, 6)}`);
    const b = worker(`fence-b-${randomUUID().slice(0, 6)}`);
    const warn = jest.spyOn(Logger.prototype, 'warn');
    // A scores; just before its final transaction it is "partitioned": its lease lapses and B
    // claims the submission and scores it to the end. Then A's write arrives.
    const save = a.submissions.saveScores.bind(a.submissions);
    jest.spyOn(a.submissions, 'saveScores').mockImplementationOnce(async (...args) => {
      await lapse('submission', id);
      expect(await b.scoring.score(id)).toMatchObject({ kind: 'scored', attempt: 2 });
      return save(...args);
    });
    const outcome = await a.scoring.score(id);

    expect(outcome).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('no longer holds the lease') });
    expect(a.leases.refusedWrites).toBe(1);
    expect(b.leases.refusedWrites).toBe(0);
    // Tokens: A's claim took 1, B's took 2 (each claim takes the next).
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ event: 'fencing.refused', submissionId: id, owner: a.name, token: '1', currentToken: '2', msg: expect.stringContaining('late write refused') }));
    const row = await db.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'SCORED', attempt: 2, fencingToken: 2n, leaseOwner: null });
    // B's column only: one per (submission, metric), one value per instance.
    expect(await db.scoreColumn.findMany({ where: { submissionId: id }, select: { metric: true, scored: true } })).toEqual([{ metric: 'chrf', scored: refs.length }]);
    expect(await db.corpusScore.count({ where: { submissionId: id } })).toBe(1);
  });

  it('refuses a late write of a worker whose own later claim holds the submission: the token, not the name, decides', async () => {
    const id = await makeSubmission();
    const a = worker(`fence-same-${randomUUID().slice(0, 6)}`);
    const first = await a.submissions.acquireLease(id, a.name, null, 30);
    await lapse('submission', id);
    const second = await a.submissions.acquireLease(id, a.name, null, 30);
    if (first.kind !== 'acquired' || second.kind !== 'acquired') throw new Error('expected both claims to succeed');
    const instanceId = (await db.instance.findFirstOrThrow({ where: { position: 0, testSet: { outputs: { some: { submissionId: id } } } } })).id;
    const rows = [{ instanceId, metric: 'chrf', signature: 's', value: 1 }];
    const err = await a.submissions.saveScores(id, rows, [{ metric: 'chrf', signature: 's', value: 1 }], { owner: a.name, token: first.token }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LeaseLostError);
    expect(err).toMatchObject({ token: first.token, currentToken: second.token });
    expect(await db.scoreColumn.count({ where: { submissionId: id } })).toBe(0);
    // The stale claim can neither fail nor hand back the submission; the current one can.
    expect(await a.submissions.markFailed(id, 'late', { owner: a.name, token: first.token })).toBe(false);
    expect(await a.submissions.releaseLease(id, { owner: a.name, token: first.token }, 'error')).toBe(false);
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).status).toBe('SCORING');
    await a.submissions.saveScores(id, rows, [{ metric: 'chrf', signature: 's', value: 1 }], { owner: a.name, token: second.token });
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).status).toBe('SCORED');
  });

  it('stops renewing a lease whose token moved on, and keeps renewing the current claim', async () => {
    const id = await makeSubmission();
    const a = worker(`fence-renew-${randomUUID().slice(0, 6)}`);
    const b = worker(`fence-renew-b-${randomUUID().slice(0, 6)}`);
    expect((await a.leases.acquire(id, null)).kind).toBe('acquired');
    await lapse('submission', id);
    expect((await b.leases.acquire(id, null)).kind).toBe('acquired');
    await a.leases.renew();
    await b.leases.renew();
    expect(a.leases.held.has(id)).toBe(false);
    expect(b.leases.held.has(id)).toBe(true);
    const row = await db.submission.findUniqueOrThrow({ where: { id } });
    expect(row.leaseOwner).toBe(b.name);
    expect(defined(row.leaseExpiresAt, 'lease').getTime()).toBeGreaterThan(Date.now());
  });

  it('a renewal held up in the network extends the lease only from when it was sent, and never revives a lapsed lease', async () => {
    // The partition bench's slowest take-back (15.4 s against 9 s predicted): the worker sent a
    // renewal just after its link was cut; TCP delivered it after the heal, and the database
    // counted ttl from its arrival, holding the submission for another 8 s.
    const ttl = 8;
    const id = await makeSubmission();
    const a = worker(`fence-late-renew-${randomUUID().slice(0, 6)}`);
    const claim = await a.submissions.acquireLease(id, a.name, null, ttl);
    if (claim.kind !== 'acquired') throw new Error('expected the claim to succeed');
    const held = [{ id, token: claim.token }];
    const expiry = async () => defined((await db.submission.findUniqueOrThrow({ where: { id } })).leaseExpiresAt, 'lease').getTime();
    // Sent 6 s ago, delivered now: the lease ends about 2 s from now (6 + 2 = ttl), not 8 s.
    const sentAt = new Date(Date.now() - 6_000);
    expect(await a.submissions.renewLeases(a.name, held, ttl, sentAt)).toEqual([id]);
    expect(await expiry()).toBeLessThan(Date.now() + 4_000);
    // Once lapsed, a renewal (late or not) is refused: the lease is the reaper's now.
    await lapse('submission', id);
    expect(await a.submissions.renewLeases(a.name, held, ttl)).toEqual([]);
    expect(await expiry()).toBeLessThan(Date.now());

    // The same for a robustness report's lease.
    const [report] = await new RobustnessRepository(db).queue([{ taskId, metric: 'chrf', suite: 'generated:7', mode: 'ref' }], async () => undefined);
    const reportId = defined(report, 'report').id;
    const reportClaim = await a.reports.acquireLease(reportId, 1, a.name, null, ttl);
    if (reportClaim.kind !== 'acquired') throw new Error('expected the report claim to succeed');
    const reportHeld = [{ id: reportId, token: reportClaim.token }];
    expect(await a.reports.renewLeases(a.name, reportHeld, ttl, new Date(Date.now() - 6_000))).toEqual([reportId]);
    expect(defined((await db.robustnessReport.findUniqueOrThrow({ where: { id: reportId } })).leaseExpiresAt, 'lease').getTime()).toBeLessThan(Date.now() + 4_000);
    await lapse('robustness_report', reportId);
    expect(await a.reports.renewLeases(a.name, [{ id: reportId, token: claim.token }], ttl)).toEqual([]);
  });

  it("refuses worker A's late robustness result after B claimed the report again; B's result lands", async () => {
    const [report] = await new RobustnessRepository(db).queue([{ taskId, metric: 'chrf', suite: 'generated:3', mode: 'ref' }], async () => undefined);
    const id = defined(report, 'report').id;
    const a = worker(`fence-rob-a-${randomUUID().slice(0, 6)}`);
    const b = worker(`fence-rob-b-${randomUUID().slice(0, 6)}`);
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const saveResult = a.reports.saveResult.bind(a.reports);
    jest.spyOn(a.reports, 'saveResult').mockImplementationOnce(async (...args) => {
      await lapse('robustness_report', id);
      expect(await b.robustness.compute(id, 1)).toMatchObject({ kind: 'done' });
      return saveResult(...args);
    });
    expect(await a.robustness.compute(id, 1)).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('no longer holds the lease') });
    expect(a.leases.refusedWrites).toBe(1);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ event: 'fencing.refused', reportId: id, token: '1', currentToken: '2' }));
    const row = await db.robustnessReport.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'DONE', fencingToken: 2n, runs: 2, leaseOwner: null });
    expect(a.leases.heldReports.size + b.leases.heldReports.size).toBe(0);
  });

  it('refuses a second run of a report whose lease is alive, and reaps a lapsed one into a pg-boss retry due at once', async () => {
    const reports = new RobustnessRepository(db);
    const [report] = await reports.queue([{ taskId, metric: 'chrf', suite: 'generated:4', mode: 'ref' }], (sql, rid, attempt) => sendRobustnessJob(boss, rid, attempt, sql));
    const id = defined(report, 'report').id;
    const [job] = (await boss.fetch<{ reportId: string }>(ROBUSTNESS_REPORT_QUEUE, { batchSize: 50, includeMetadata: true })).filter((j) => j.data.reportId === id);
    if (!job) throw new Error('expected the report job');
    const dead = worker(`fence-dead-${randomUUID().slice(0, 6)}`);
    expect(await dead.leases.acquireReport(id, 1, job.id)).toMatchObject({ kind: 'acquired', runs: 1 });
    expect(await worker('fence-other').leases.acquireReport(id, 1, null)).toMatchObject({ kind: 'held', owner: dead.name });
    // The dead worker never renews.
    await lapse('robustness_report', id);
    const reaped = await worker(`fence-reaper-${randomUUID().slice(0, 6)}`).leases.reap([id]);
    expect(reaped.reportsRequeued.map((r) => r.reportId)).toEqual([id]);
    expect(await db.robustnessReport.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'QUEUED', leaseOwner: null, runs: 1 });
    // Due at once, not after the queue's backoff (retryDelay 5 s).
    expect(QUEUE_POLICY[ROBUSTNESS_REPORT_QUEUE].retryDelaySeconds).toBeGreaterThan(1);
    const again = (await boss.fetch<{ reportId: string }>(ROBUSTNESS_REPORT_QUEUE, { batchSize: 50, includeMetadata: true })).find((j) => j.id === job.id);
    expect(again?.retryCount).toBe(1);
    expect(await worker('fence-second').leases.acquireReport(id, 1, job.id)).toMatchObject({ kind: 'acquired', runs: 2, token: 2n });
  });

  it("refuses a leaderboard computation's boards once another worker took the phase's token; a new claim stores them", async () => {
    await worker(`fence-lb-scorer-${randomUUID().slice(0, 6)}`).scoring.score(await makeSubmission());
    // Stored through a pg pool, as the worker module stores boards.
    const writes = new Pool({ connectionString: own.url, max: 2 });
    const boards = new LeaderboardRepository(db, writes);
    try {
      const a = worker(`fence-lb-a-${randomUUID().slice(0, 6)}`);
      const config = { DATABASE_URL: own.url, PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_WORKER_NAME: a.name } as WorkerConfig;
      const processor = new LeaderboardProcessor(boss, config, boards, a.leases);
      const warn = jest.spyOn(Logger.prototype, 'warn');
      // A's lock connection dropped (a partition) and B took the phase while A's thread computed.
      const store = boards.store.bind(boards);
      jest.spyOn(boards, 'store').mockImplementationOnce(async (...args) => {
        await boards.claimBoardLease(phaseId, 'fence-lb-b');
        return store(...args);
      });
      expect(await processor.compute(phaseId, null)).toBeNull();
      expect(a.leases.refusedWrites).toBe(1);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ event: 'fencing.refused', phaseId, kind: 'leaderboard' }));
      expect(await db.storedLeaderboard.count({ where: { phaseId } })).toBe(0);
      const again = await processor.compute(phaseId, null);
      expect(again?.stored).toBeGreaterThanOrEqual(1);
      expect(await db.storedLeaderboard.count({ where: { phaseId } })).toBe(again?.stored);
    } finally {
      await writes.end();
    }
  });

  it('fails a report whose worker stopped during its last run', async () => {
    const reports = new RobustnessRepository(db);
    const [report] = await reports.queue([{ taskId, metric: 'chrf', suite: 'generated:5', mode: 'ref' }], async () => undefined);
    const id = defined(report, 'report').id;
    await db.robustnessReport.update({ where: { id }, data: { runs: QUEUE_POLICY[ROBUSTNESS_REPORT_QUEUE].retryLimit } });
    expect(await worker('fence-last').leases.acquireReport(id, 1, null)).toMatchObject({ kind: 'acquired', runs: QUEUE_POLICY[ROBUSTNESS_REPORT_QUEUE].retryLimit + 1 });
    await lapse('robustness_report', id);
    const reaped = await worker(`fence-reaper-${randomUUID().slice(0, 6)}`).leases.reap([id]);
    expect(reaped.reportsFailed.map((r) => r.reportId)).toEqual([id]);
    expect(await db.robustnessReport.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'FAILED', error: expect.stringContaining('stopped during run 3, the last one') });
  });
});
