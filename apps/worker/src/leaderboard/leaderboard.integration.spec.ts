/**
 * The worker's leaderboard jobs against a real PostgreSQL and real pg-boss: a burst of sends for
 * one phase coalesces into one waiting job; the job stores every default view for the phase's
 * current stamp; the analysis runs in a worker thread, so the worker's event loop (which renews
 * scoring leases every few seconds) keeps ticking through a large computation.
 */
import type { WorkerConfig } from '@podium/config';
import { COMPUTE_LEADERBOARDS_QUEUE, ensureQueue, sendLeaderboardJob } from '@podium/contracts';
import { createDb, IdentityRepository, LeaderboardRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { BOARD_THREAD_NICENESS, defaultView, parseLeaderboardDocument, viewKey } from '@podium/leaderboard';
import { mulberry32 } from '@podium/ranking';
import { randomUUID } from 'node:crypto';
import { getPriority } from 'node:os';
import { Pool } from 'pg';
import PgBoss from 'pg-boss';
import { LEADERBOARD_TIMING, LeaderboardProcessor } from './leaderboard.processor';
import { defined } from '../../../../test/support/defined';
import { busyLoops, hasChrt } from '../../../../test/support/scheduler';

jest.setTimeout(180_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;
const QUEUE_SCHEMA = 'pgboss_lb_worker_it';

describeDb('LeaderboardProcessor (real PostgreSQL, pg-boss, worker thread)', () => {
  let db: Db;
  let boss: PgBoss;
  let boards: LeaderboardRepository;
  let writes: Pool;
  let processor: LeaderboardProcessor;
  let phaseId: string;
  let teamId: string;
  let organiserId: string;
  let submissions: SubmissionRepository;
  const SYSTEMS = 6;
  const INSTANCES = 6000;

  beforeAll(async () => {
    db = createDb(defined(url, 'DATABASE_URL'), { maxConnections: 3 });
    // Boards stored through a pg pool, as the worker module stores them.
    writes = new Pool({ connectionString: defined(url, 'DATABASE_URL'), max: 2 });
    boards = new LeaderboardRepository(db, writes);
    const tasks = new TaskRepository(db);
    submissions = new SubmissionRepository(db);
    const identity = new IdentityRepository(db);
    const suffix = randomUUID().slice(0, 8);
    organiserId = (await identity.createUser(`lborg-${suffix}`, Role.ORGANISER)).id;
    teamId = (await identity.createTeam(`lbteam-${suffix}`, [])).id;
    const task = await tasks.createTask({
      slug: `lbw-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'nli', name: 'nli', options: {} }] as never, createdById: organiserId,
    });
    // A fixed, large resample count: the analysis takes seconds, long enough to watch the event loop.
    const phase = await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true,
    });
    await tasks.setPhaseSignificance(phase.id, { resamples: 2000, seed: 12345 });
    phaseId = phase.id;
    await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: INSTANCES }, (_, i) => ({ externalId: `s${i}`, source: `quelle ${i}`, references: [`ref ${i}`] })));
    const ids = await tasks.instanceIdsOf(defined(defined(await tasks.phaseById(phase.id), 'phase').testSetId, 'test set'));
    for (let s = 0; s < SYSTEMS; s++) {
      // A team per system: the default board ranks one row per team (docs/adr/0013-phase-state-machine.md).
      const systemTeam = s === 0 ? teamId : (await identity.createTeam(`lbteam-${suffix}-${s}`, [])).id;
      const sub = await submissions.create(
        { phaseId, teamId: systemTeam, submittedById: organiserId, systemName: `sys${s}`, description: '', checksum: `c${s}`, outputs: ids.map((i, k) => ({ instanceId: i.id, text: `out ${s} ${k}` })) },
        async () => undefined,
      );
      const r = mulberry32(s + 1);
      const values = ids.map(() => Math.min(0.999, r.next() * 0.8 + s * 0.02));
      await submissions.saveScores(
        sub.id,
        ids.map((i, k) => ({ instanceId: i.id, metric: 'nli', signature: 'nli|test', value: defined(values[k], 'values[k]') })),
        [{ metric: 'nli', signature: 'nli|test', value: values.reduce((a, b) => a + b, 0) / values.length }],
      );
    }
    boss = new PgBoss({ connectionString: defined(url, 'DATABASE_URL'), schema: QUEUE_SCHEMA, max: 3, supervise: false, schedule: false });
    await boss.start();
    const config = { DATABASE_URL: defined(url, 'DATABASE_URL'), PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_WORKER_NAME: 'lb-test-worker' } as WorkerConfig;
    processor = new LeaderboardProcessor(boss, config, boards);
  });

  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true, timeout: 5_000 });
    await Promise.all([db?.$disconnect(), writes?.end()]);
  });

  it('computes in a worker thread while the event loop keeps ticking (max gap far below the compute time)', async () => {
    let last = performance.now();
    let maxGap = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 20);
    const started = performance.now();
    const summary = defined(await processor.compute(phaseId, null), 'summary (the phase lock was free)');
    const elapsed = performance.now() - started;
    clearInterval(tick);
    console.log(`leaderboards of ${SYSTEMS} × ${INSTANCES}: ${summary.computed} computed of ${summary.views} views in ${elapsed.toFixed(0)} ms; longest event-loop gap ${maxGap.toFixed(0)} ms`);
    expect(summary.threadId).toBeGreaterThan(0); // 0 is the main thread
    expect(summary.computed).toBeGreaterThanOrEqual(1);
    // One board alone takes seconds of CPU at 2,000 resamples; on the event loop the gap would be as long.
    expect(elapsed).toBeGreaterThan(800);
    expect(maxGap).toBeLessThan(Math.max(400, elapsed / 4));
    const stamp = await boards.stamp(phaseId);
    const found = await boards.current(phaseId, viewKey(defaultView('', 'primary')));
    expect(found?.board?.stamp).toBe(stamp);
    const bytes = await boards.bytes(defined(defined(found, 'stored board row').board, 'stored board').id);
    const board = parseLeaderboardDocument(defined(bytes, 'board bytes').body);
    expect(board.systems).toHaveLength(SYSTEMS);
    expect(board.resamples).toBe(2000);
    expect(board.updating).toBe(false);
  });

  it('coalesces a burst of sends for a phase into one job, which stores every default view for the new stamp', async () => {
    await ensureQueue(boss, COMPUTE_LEADERBOARDS_QUEUE);
    // A new stamp: the baseline flag is part of it.
    await db.submission.updateMany({ where: { phaseId, systemName: 'sys0' }, data: { isBaseline: true } });
    const stamp = await boards.stamp(phaseId);
    const sent = await Promise.all([1, 2, 3].map(() => sendLeaderboardJob(boss, phaseId, 'scored')));
    expect(sent.filter((id) => id !== null)).toHaveLength(1);
    await processor.onApplicationBootstrap();
    const keys = ['', 'nli'].flatMap((m) => (['primary', 'all'] as const).map((e) => viewKey(defaultView(m, e))));
    const deadline = Date.now() + 150_000;
    while (!(await boards.has(phaseId, keys, stamp))) {
      if (Date.now() > deadline) throw new Error('the default views were not stored in time');
      await new Promise((r) => setTimeout(r, 250));
    }
    const found = await boards.current(phaseId, viewKey(defaultView('', 'all')));
    const board = parseLeaderboardDocument(defined(await boards.bytes(defined(defined(found, 'stored board row').board, 'stored board').id), 'board bytes').body);
    expect(board.systems.find((s) => s.system === 'sys0')?.isBaseline).toBe(true);
    await boss.offWork(COMPUTE_LEADERBOARDS_QUEUE);
  });

  const allKeys = () => ['', 'nli'].flatMap((m) => (['primary', 'all'] as const).map((e) => viewKey(defaultView(m, e))));
  const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 60_000) => {
    const deadline = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** Starts a computation of a stamp never stored, and once its thread has read it, moves the stamp on. */
  const computeWhileStampMoves = async (p: LeaderboardProcessor) => {
    await moveStamp();
    const running = p.compute(phaseId, null);
    await until('the thread to read the stamp', () => p.computing.has(phaseId));
    const old = defined(p.computing.get(phaseId), 'stamp computed');
    await moveStamp();
    const fresh = await boards.stamp(phaseId);
    expect(fresh).not.toBe(old);
    return { summary: defined(await running, 'summary (the lock was free)'), old, fresh };
  };
  /** No leaderboard job of an earlier test left, queued or delayed. */
  const drain = async () => {
    await ensureQueue(boss, COMPUTE_LEADERBOARDS_QUEUE);
    await db.$executeRawUnsafe(`DELETE FROM ${QUEUE_SCHEMA}.job WHERE name = $1`, COMPUTE_LEADERBOARDS_QUEUE);
    expect(await boss.getQueueSize(COMPUTE_LEADERBOARDS_QUEUE, { before: 'completed' })).toBe(0);
  };
  /** A stamp never seen before: the team's name is part of it. */
  const moveStamp = async () => {
    const sys0 = defined(await db.submission.findFirst({ where: { phaseId, systemName: 'sys0' } }), 'sys0');
    await db.team.update({ where: { id: sys0.teamId }, data: { name: `lbteam-${randomUUID()}` } });
  };

  it('abandons a computation whose stamp moves on mid-way; with nothing left to score, the same job computes the newer stamp at once', async () => {
    await drain();
    // A recent default board: the progress guarantee does not apply.
    if (!(await boards.current(phaseId, viewKey(defaultView('', 'primary'))))?.board) await processor.compute(phaseId, null);
    processor.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 10 * 60_000, lockWaitMs: 0, requeueSeconds: 0 };
    const started = Date.now();
    const { summary, old, fresh } = await computeWhileStampMoves(processor);
    const overtaken = defined(summary.overtaken, 'the overtaken computation');
    console.log(`abandoned after ${Date.now() - started} ms with ${overtaken.stored} boards stored; the newer stamp computed in the same job`);
    expect(overtaken.abandoned).toBe(true);
    expect(overtaken.stamp).toBe(old);
    expect(await boards.has(phaseId, allKeys(), old)).toBe(false);
    // The job went on to the newer stamp under its lock: no hand-back, no job queued by it.
    expect(summary.abandoned).toBe(false);
    expect(summary.stamp).toBe(fresh);
    expect(await boards.has(phaseId, allKeys(), fresh)).toBe(true);
    expect(await boss.getQueueSize(COMPUTE_LEADERBOARDS_QUEUE, { before: 'completed' })).toBe(0);
  });

  it('abandoned while submissions are still being scored: the phase is queued again, and that job stores the newer stamp', async () => {
    await drain();
    if (!(await boards.current(phaseId, viewKey(defaultView('', 'primary'))))?.board) await processor.compute(phaseId, null);
    processor.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 10 * 60_000, lockWaitMs: 0, requeueSeconds: 0 };
    const queued = await submissions.create(
      { phaseId, teamId, submittedById: organiserId, systemName: 'queued-again', description: '', checksum: 'cqa', outputs: [], bypassLimits: true },
      async () => undefined,
    );
    let fresh: string;
    try {
      const moved = await computeWhileStampMoves(processor);
      fresh = moved.fresh;
      expect(moved.summary.abandoned).toBe(true);
      expect(moved.summary.overtaken).toBeUndefined();
      expect(moved.summary.stamp).toBe(moved.old);
    } finally {
      await db.submission.delete({ where: { id: queued.id } });
    }
    // The newer stamp's job waits (sent by the abandoning worker; the change's own send coalesces with it).
    const job = defined((await boss.fetch(COMPUTE_LEADERBOARDS_QUEUE, { includeMetadata: true }))[0], 'queued leaderboard job');
    const done = defined(await processor.handle(job), 'summary of the queued job');
    expect(done.abandoned).toBe(false);
    expect(done.stamp).toBe(fresh);
    expect(await boards.has(phaseId, allKeys(), fresh)).toBe(true);
  });

  it('progress guarantee: finishes an outdated stamp when the default board is older than the bound', async () => {
    await drain();
    processor.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 0, lockWaitMs: 0, requeueSeconds: 0 };
    const { summary, old } = await computeWhileStampMoves(processor);
    expect(summary.abandoned).toBe(false);
    expect(summary.stamp).toBe(old);
    expect(await boards.has(phaseId, allKeys(), old)).toBe(true);
  });

  const DEFAULT_KEY = viewKey(defaultView('', 'primary'));
  /** Ages the phase's stored boards by `seconds` (as if computed that long before). */
  const ageBoards = (seconds: number) => db.$executeRaw`UPDATE stored_leaderboard SET computed_at = computed_at - make_interval(secs => ${seconds}) WHERE phase_id = ${phaseId}::uuid`;

  it('end of a burst: past the bound, an outdated computation is finished while submissions wait to be scored, dropped once none does', async () => {
    await drain();
    if (!(await boards.current(phaseId, viewKey(defaultView('', 'primary'))))?.board) await processor.compute(phaseId, null);
    // The default board is 150 s old: older than the 100 s bound, younger than twice it.
    await ageBoards(150);
    processor.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 100_000, lockWaitMs: 0, requeueSeconds: 0 };
    // A submission still queued: more changes are coming, so the outdated board is finished (progress).
    const queued = await submissions.create(
      { phaseId, teamId, submittedById: organiserId, systemName: 'queued', description: '', checksum: 'cq', outputs: [], bypassLimits: true },
      async () => undefined,
    );
    try {
      expect((await boards.freshness(phaseId, viewKey(defaultView('', 'primary')))).scoring).toBe(1);
      const during = await computeWhileStampMoves(processor);
      // The outdated default board is stored; the views after it are dropped (that board is recent now).
      expect(await boards.has(phaseId, [DEFAULT_KEY], during.old)).toBe(true);
    } finally {
      await db.submission.delete({ where: { id: queued.id } });
    }
    // Nothing left to score: the stamp that moved on is the final one, so the outdated computation gives way.
    await drain();
    await ageBoards(150);
    const after = await computeWhileStampMoves(processor);
    expect(after.summary.overtaken?.abandoned).toBe(true);
    expect(await boards.has(phaseId, [DEFAULT_KEY], after.old)).toBe(false);
    expect(await boards.has(phaseId, [DEFAULT_KEY], after.fresh)).toBe(true);
  });

  /** With a submission still queued and a recent default board, a computation of two views (two tests) whose stamp moves on mid-way. */
  const overtakenDuringBurst = async (memoMinCells: number | undefined, stillQueued = true, doneMidway = false) => {
    await drain();
    if (!(await boards.current(phaseId, DEFAULT_KEY))?.board) await processor.compute(phaseId, null);
    processor.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 10 * 60_000, lockWaitMs: 0, requeueSeconds: 0 };
    processor.memoMinCells = memoMinCells;
    const queued = stillQueued
      ? await submissions.create(
          { phaseId, teamId, submittedById: organiserId, systemName: 'queued-burst', description: '', checksum: 'cqb', outputs: [], bypassLimits: true },
          async () => undefined,
        )
      : null;
    try {
      // Each analysis takes about a second at 2,000 resamples.
      const views = [
        { ...defaultView('', 'primary'), test: 'wilcoxon' as const },
        { ...defaultView('', 'primary'), test: 'sign' as const },
      ];
      await moveStamp();
      const running = processor.compute(phaseId, views);
      // The stamp moves on once the first analysis has begun (before it, nothing would be finished).
      await until('the thread to begin its first analysis', () => processor.analysing.has(phaseId));
      const old = defined(processor.computing.get(phaseId), 'stamp computed');
      // the last queued submission done (here: gone) as the stamp moves on: the end of the burst
      if (queued && doneMidway) await db.submission.delete({ where: { id: queued.id } });
      await moveStamp();
      const summary = defined(await running, 'summary (the lock was free)');
      // With nothing left to score the job went on to the newer stamp (JobSummary.overtaken).
      const round = summary.overtaken ?? summary;
      expect(round.stamp).toBe(old);
      expect(round.abandoned).toBe(true);
      const stored = await Promise.all(views.map((v) => boards.has(phaseId, [viewKey(v)], old)));
      const memos = await db.leaderboardMemo.count({ where: { phaseId } });
      const final = summary.overtaken ? await Promise.all(views.map(async (v) => boards.has(phaseId, [viewKey(v)], await boards.stamp(phaseId)))) : null;
      return { stored, memos, final, dropped: round, summary };
    } finally {
      processor.memoMinCells = undefined;
      if (queued) await db.submission.deleteMany({ where: { id: queued.id } });
      await db.leaderboardMemo.deleteMany({ where: { phaseId } });
    }
  };

  it('during a burst, the memos are filled ahead of the boards and kept when the stamp moves on; the stale analysis after the fill is dropped at once', async () => {
    await db.leaderboardMemo.deleteMany({ where: { phaseId } });
    const { stored, memos, dropped } = await overtakenDuringBurst(0);
    // Both analyses' memos filled (the stamp moved on during the first fill, which went on) and
    // saved; the boards after them keep nothing the fills did not, so neither view is stored.
    expect(stored).toEqual([false, false]);
    expect(memos).toBe(2);
    // The terminated computation still reports its fills (for the worker's log line).
    expect(dropped.fills?.map((f) => f.use.systemsComputed > 0)).toEqual([true, true]);
  });

  it('with nothing left to score, a stale analysis is dropped at once even when it keeps a memo, and the same job computes the final stamp', async () => {
    const { stored, final, dropped } = await overtakenDuringBurst(0, false);
    expect(stored).toEqual([false, false]);
    // Terminated in its first analysis: no board and no memo of the outdated stamp (the final
    // computation's memos are its own).
    expect(dropped.computed).toBe(0);
    expect(final).toEqual([true, true]);
  });

  it('at the end of a burst the fill in progress is dropped too, and the same job computes the final stamp, adding what the memos lack', async () => {
    const { stored, memos, final, dropped, summary } = await overtakenDuringBurst(0, true, true);
    expect(stored).toEqual([false, false]);
    expect(dropped.computed).toBe(0);
    // The overtaken fill kept nothing (it began from no memo): the final computation's analyses
    // computed every system themselves, and kept the memos.
    expect(summary.memoUses?.map((u) => u.use.systemsReused)).toEqual([0, 0]);
    expect(memos).toBe(2);
    expect(final).toEqual([true, true]);
  });

  it('during a burst, a stale analysis that keeps no memo (a board below the memo size) is dropped at once', async () => {
    const { stored, memos } = await overtakenDuringBurst(undefined);
    expect(stored).toEqual([false, false]);
    expect(memos).toBe(0);
  });

  it('PODIUM_LEADERBOARD_THREADS = 2: two threads share the analyses of the views asked for, and every view is stored', async () => {
    await drain();
    const config = { DATABASE_URL: defined(url, 'DATABASE_URL'), PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_WORKER_NAME: 'lb-test-threads', PODIUM_LEADERBOARD_THREADS: 2 } as WorkerConfig;
    const two = new LeaderboardProcessor(boss, config, boards);
    two.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 10 * 60_000, lockWaitMs: 0, requeueSeconds: 0 };
    await moveStamp();
    const views = (['ttest', 'wilcoxon'] as const).map((test) => ({ ...defaultView('', 'primary'), test }));
    const summary = defined(await two.compute(phaseId, views), 'summary (the lock was free)');
    expect(summary.abandoned).toBe(false);
    expect(summary.threads).toBe(2);
    expect(summary.computed).toBe(2);
    expect(summary.stored).toBe(2);
    expect(await boards.has(phaseId, views.map(viewKey), await boards.stamp(phaseId))).toBe(true);
    // nothing being scored: the threads yielded before they loaded their modules (Linux keeps a nice value per thread)
    if (process.platform === 'linux') expect(summary.niceAtLoad).toBe(Math.max(getPriority(0), BOARD_THREAD_NICENESS));
    if (process.platform === 'linux' && getPriority(0) < BOARD_THREAD_NICENESS) expect(summary.niceAtLoad).not.toBe(getPriority(0));
  });

  (process.platform === 'linux' && hasChrt() ? it : it.skip)('PODIUM_LEADERBOARD_YIELD = idle: the threads run under SCHED_IDLE; starved behind busy cores, the same job computes again at nice 10 (ADR 0046)', async () => {
    await drain();
    const config = { DATABASE_URL: defined(url, 'DATABASE_URL'), PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_WORKER_NAME: 'lb-test-idle', PODIUM_LEADERBOARD_YIELD: 'idle' } as WorkerConfig;
    const idle = new LeaderboardProcessor(boss, config, boards);
    idle.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 10 * 60_000, lockWaitMs: 0, requeueSeconds: 0 };
    const views = [defaultView('', 'primary')];
    // Cores to spare: under SCHED_IDLE from the start (nothing is being scored), and nothing starves.
    await moveStamp();
    const free = defined(await idle.compute(phaseId, views), 'summary (the lock was free)');
    expect(free).toMatchObject({ idle: true, abandoned: false, stored: 1 });
    expect(free.starved).toBeUndefined();
    expect(idle.idleBackoffUntil).toBe(0);
    // Every core kept busy at the worker's priority: the thread starves, is stopped after the
    // window, and the same job computes the board at nice 10 (the busy loops stopped meanwhile,
    // so that it finishes soon).
    idle.timing = { ...idle.timing, starvedWindowMs: 1_000 };
    await moveStamp();
    const hogs = busyLoops();
    const job = idle.compute(phaseId, views);
    const began = Date.now();
    try {
      while (idle.idleBackoffUntil === 0 && Date.now() - began < 60_000) await new Promise((r) => setTimeout(r, 50));
    } finally {
      hogs.stop();
    }
    console.log(`SCHED_IDLE board thread stopped as starving ${Date.now() - began} ms after the computation began behind ${hogs.count} busy loops`);
    const summary = defined(await job, 'summary (the lock was free)');
    expect(summary.starved).toMatchObject({ abandoned: true, idle: true });
    expect(summary).toMatchObject({ abandoned: false, idle: false, stored: 1 });
    expect(await boards.has(phaseId, views.map(viewKey), await boards.stamp(phaseId))).toBe(true);
    // For the backoff the worker's threads yield with nice 10 alone.
    expect(idle.idleBackoffUntil).toBeGreaterThan(Date.now() + LEADERBOARD_TIMING.idleBackoffMs / 2);
    await moveStamp();
    expect(defined(await idle.compute(phaseId, views), 'summary').idle).toBe(false);
  });

  it('PODIUM_LEADERBOARD_COLUMN_CACHE_MB: the next computation of the phase reads only the score columns rewritten since, and ranks the same', async () => {
    await drain();
    const config = { DATABASE_URL: defined(url, 'DATABASE_URL'), PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_WORKER_NAME: 'lb-test-columns', PODIUM_LEADERBOARD_THREADS: 1, PODIUM_LEADERBOARD_COLUMN_CACHE_MB: 64 } as WorkerConfig;
    const cached = new LeaderboardProcessor(boss, config, boards);
    cached.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 10 * 60_000, lockWaitMs: 0, requeueSeconds: 0 };
    const view = [{ ...defaultView('', 'primary'), test: 'sign' as const }];
    const boardNow = async () => parseLeaderboardDocument(defined(await boards.bytes(defined((await boards.current(phaseId, viewKey(defined(view[0], 'the view'))))?.board, 'stored board').id), 'board bytes').body);
    await moveStamp();
    const first = defined(await cached.compute(phaseId, view), 'summary (the lock was free)');
    expect(first.columnReads).toEqual({ cached: 0, read: SYSTEMS });
    // the thread's columns outlive it, in the worker's cache
    expect(cached.columns?.size).toBe(SYSTEMS);
    await moveStamp();
    const second = defined(await cached.compute(phaseId, view), 'summary (the lock was free)');
    expect(second.columnReads).toEqual({ cached: SYSTEMS, read: 0 });
    // sys1 rescored with the same values: a new row version, read again
    const sys1 = defined(await db.submission.findFirst({ where: { phaseId, systemName: 'sys1' } }), 'sys1');
    await db.$executeRawUnsafe(`UPDATE score_column SET "values" = "values" WHERE submission_id = $1::uuid`, sys1.id);
    await moveStamp();
    const third = defined(await cached.compute(phaseId, view), 'summary (the lock was free)');
    expect(third.columnReads).toEqual({ cached: SYSTEMS - 1, read: 1 });
    const withCache = await boardNow();
    // the same view computed by a worker without the cache, for another stamp
    await moveStamp();
    defined(await processor.compute(phaseId, view), 'summary (the lock was free)');
    const without = await boardNow();
    expect(withCache.systems.map((r) => [r.system, r.mean, r.median, r.meanCi, r.rank])).toEqual(without.systems.map((r) => [r.system, r.mean, r.median, r.meanCi, r.rank]));
    // Bradley–Terry is fitted iteratively from the memo's last strengths: equal to the last bits
    withCache.systems.forEach((r, k) => expect(r.bt).toBeCloseTo(defined(without.systems[k], 'the same row').bt ?? Number.NaN, 12));
  });

  it('while the phase is being scored, the threads load at the worker\'s priority (their memo fills keep pace with scoring)', async () => {
    await drain();
    const queued = await submissions.create(
      { phaseId, teamId, submittedById: organiserId, systemName: 'queued-load', description: '', checksum: 'cql', outputs: [], bypassLimits: true },
      async () => undefined,
    );
    try {
      processor.timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 10 * 60_000, lockWaitMs: 0, requeueSeconds: 0 };
      await moveStamp();
      const summary = defined(await processor.compute(phaseId, [{ ...defaultView('', 'primary'), test: 'sign' as const }]), 'summary (the lock was free)');
      expect(summary.abandoned).toBe(false);
      expect(summary.niceAtLoad).toBe(getPriority(0));
      // (a test runner itself at nice ≥ 10 cannot tell the two apart)
      if (process.platform === 'linux' && getPriority(0) < BOARD_THREAD_NICENESS) expect(summary.niceAtLoad).not.toBe(BOARD_THREAD_NICENESS);
      // After their fills they yield with nice 10 alone, also where SCHED_IDLE is configured: behind
      // the scoring workers they would starve (ADR 0046).
      expect(summary.idle).toBe(false);
      const idle = new LeaderboardProcessor(boss, { DATABASE_URL: defined(url, 'DATABASE_URL'), PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_WORKER_NAME: 'lb-test-idle-scoring', PODIUM_LEADERBOARD_YIELD: 'idle' } as WorkerConfig, boards);
      idle.timing = processor.timing;
      await moveStamp();
      expect(defined(await idle.compute(phaseId, [{ ...defaultView('', 'primary'), test: 'sign' as const }]), 'summary (the lock was free)')).toMatchObject({ abandoned: false, idle: false });
    } finally {
      await db.submission.deleteMany({ where: { id: queued.id } });
    }
  });

  it('one computation per phase across workers: a second one hands the phase back as a delayed job', async () => {
    await drain();
    const timing = { ...LEADERBOARD_TIMING, staleCheckMs: 100, staleBoundMs: 10 * 60_000, lockWaitMs: 0, requeueSeconds: 30 };
    const config = { DATABASE_URL: defined(url, 'DATABASE_URL'), PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_WORKER_NAME: 'lb-test-worker-2' } as WorkerConfig;
    const other = new LeaderboardProcessor(boss, config, boards);
    processor.timing = timing;
    other.timing = timing;
    const first = processor.compute(phaseId, null);
    await until('the first thread to start', () => processor.computing.has(phaseId));
    expect(await other.compute(phaseId, null)).toBeNull();
    expect(defined(await first, 'first summary').abandoned).toBe(false);
    // Handed back, delayed: queued, not yet fetchable.
    expect(await boss.getQueueSize(COMPUTE_LEADERBOARDS_QUEUE, { before: 'active' })).toBe(1);
    expect(await boss.fetch(COMPUTE_LEADERBOARDS_QUEUE)).toEqual([]);
    // With the lock free, the other worker runs; every view is stored for this stamp already, so it computes none.
    other.timing = { ...timing, lockWaitMs: 10_000 };
    const second = defined(await other.compute(phaseId, null), 'second summary');
    expect(second.abandoned).toBe(false);
    expect(second.computed).toBe(0);
  });
});
