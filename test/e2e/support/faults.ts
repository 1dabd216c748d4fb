/**
 * Fault harness shared by the fault end-to-end tests (small numbers, short leases) and
 * `npm run bench:faults` (large numbers, default leases): real api and worker processes on
 * loopback, worker kills with SIGKILL, generated malformed requests, concurrent submits.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { SCORE_SUBMISSION_QUEUE } from '@podium/contracts';
import { createDb, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import PgBoss from 'pg-boss';
import { freePort, repoRoot, startApp, waitFor, type RunningApp } from './processes';
import { defined } from '../../support/defined';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A fault bench's database side: migrates the PostgreSQL at `url`, opens a client and a pg-boss
 * with the scoring queue, and puts their closing at the front of `cleanup` (run in order).
 */
export async function openBenchStore(url: string, cleanup: (() => Promise<void>)[]): Promise<{ db: Db; boss: PgBoss }> {
  execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: url }, stdio: 'ignore' });
  const db = createDb(url, { maxConnections: 4 });
  cleanup.unshift(() => db.$disconnect());
  const boss = new PgBoss({ connectionString: url, max: 2, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue(SCORE_SUBMISSION_QUEUE);
  cleanup.unshift(() => boss.stop({ graceful: false, wait: true }));
  return { db, boss };
}

export interface FaultTask {
  phaseId: string;
  teamId: string;
  teamName: string;
  organiserId: string;
  organiserToken: string;
  participantToken: string;
  /** External instance ids, in test-set order. */
  instanceIds: string[];
}

/** A task with `instances` instances (chrF), a team with one participant, and tokens. */
export async function createFaultTask(db: Db, opts: { instances: number; totalLimit: number; dailyLimit?: number }): Promise<FaultTask> {
  const identity = new IdentityRepository(db);
  const tasks = new TaskRepository(db);
  const suffix = randomUUID().slice(0, 8);
  const organiser = await identity.createUser(`org-faults-${suffix}`, Role.ORGANISER);
  const teamName = `team-faults-${suffix}`;
  const team = await identity.createTeam(teamName, [`alice-faults-${suffix}`]);
  const alice = await identity.userByName(`alice-faults-${suffix}`);
  const task = await tasks.createTask({
    slug: `faults-${suffix}`, title: 'faults', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id,
    metrics: [{ key: 'chrf', name: 'chrf', options: {} }] as never,
  });
  const phase = await tasks.createPhase({
    taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'),
    dailyLimit: opts.dailyLimit ?? opts.totalLimit, totalLimit: opts.totalLimit, leaderboardBeforeClose: true,
  });
  const instanceIds = Array.from({ length: opts.instances }, (_, i) => `i${i}`);
  await tasks.uploadTestSet(phase.id, 'ts', instanceIds.map((id, i) => ({ externalId: id, source: `quelle ${i}`, references: [`the reference sentence number ${i}`] })));
  return {
    phaseId: phase.id,
    teamId: team.id,
    teamName,
    organiserId: organiser.id,
    organiserToken: await identity.issueToken(organiser.id, 'faults'),
    participantToken: await identity.issueToken(defined(alice).id, 'faults'),
    instanceIds,
  };
}

/** Stores `n` submissions of the task (as the organiser, past limits) and queues them. */
export async function queueSubmissions(
  db: Db,
  task: FaultTask,
  n: number,
  enqueue: (sql: Parameters<Parameters<SubmissionRepository['create']>[1]>[0], id: string) => Promise<void>,
): Promise<string[]> {
  const submissions = new SubmissionRepository(db);
  const instances = await new TaskRepository(db).instanceIdsOf(defined(defined((await new TaskRepository(db).phaseById(task.phaseId))).testSetId));
  const ids: string[] = [];
  for (let s = 0; s < n; s++) {
    const sub = await submissions.create(
      {
        phaseId: task.phaseId, teamId: task.teamId, submittedById: task.organiserId, systemName: `sys-${randomUUID().slice(0, 8)}`, description: '', checksum: String(s),
        outputs: instances.map((inst, i) => ({ instanceId: inst.id, text: `the reference sentence number ${(i * 7 + s) % instances.length}` })), bypassLimits: true,
      },
      enqueue,
    );
    ids.push(sub.id);
  }
  return ids;
}

export interface WorkerPool {
  /** Starts a worker named `name`; a name whose process was killed may be started again (a supervisor's restart). */
  start(name: string): RunningApp;
  running: Map<string, RunningApp>;
  stopAll(): Promise<void>;
  logs(): string;
  /** Seconds from each start to the worker's `ready` log line (its scoring slots fetch jobs), for those that got there. */
  boots(): number[];
}

/** Workers started with `env`; `netnsOf(name)` picks a network namespace for each (netns.ts). */
/** `nodeArgs`: Node flags for every worker of the pool (bench:platform profiles them with `--cpu-prof`). */
export function workerPool(env: Record<string, string>, netnsOf?: (name: string) => string, nodeArgs?: string[]): WorkerPool {
  const running = new Map<string, RunningApp>();
  const all: RunningApp[] = [];
  const boots: number[] = [];
  return {
    running,
    start(name) {
      const netns = netnsOf?.(name);
      const startedAt = Date.now();
      const w = startApp('apps/worker/src/main.ts', { ...env, PODIUM_WORKER_NAME: name, PODIUM_LOG_FORMAT: 'json' }, { ...(netns ? { netns } : {}), ...(nodeArgs ? { nodeArgs } : {}) });
      running.set(name, w);
      all.push(w);
      const onOutput = (c: Buffer) => {
        if (!c.toString().includes('"event":"ready"')) return;
        boots.push((Date.now() - startedAt) / 1000);
        w.child.stdout?.off('data', onOutput);
      };
      w.child.stdout?.on('data', onOutput);
      // A restart under the same name may already be running when the killed process's exit arrives.
      w.child.once('exit', () => {
        if (running.get(name) === w) running.delete(name);
      });
      return w;
    },
    boots: () => [...boots],
    async stopAll() {
      await Promise.all([...running.values()].map((w) => w.stop()));
    },
    logs: () => all.map((w) => w.logs.join('')).join('\n---\n'),
  };
}

/** Instance scores stored for a submission (its columns' scored positions, over every metric). */
export async function storedScoreCount(db: Db, submissionId: string): Promise<number> {
  return (await db.scoreColumn.aggregate({ where: { submissionId }, _sum: { scored: true } }))._sum.scored ?? 0;
}

export interface KillReport {
  /** Worker processes killed (each held one lease or more). */
  kills: number;
  /**
   * Leases the killed processes held: one a kill, or more when a worker ran a handed-back job in
   * its rescue slot beside its own (ScoringProcessor.rescueOnce).
   */
  killedLeases: number;
  /** Seconds from each kill to the start of the re-run (its attempt counter moving on), one per submission the killed worker held. */
  detections: number[];
  worstDetectionSeconds: number;
  /**
   * Seconds from each kill to the submission being handed back (QUEUED by a reaper, or already
   * re-run or settled when first seen): the detection of the dead worker, without the wait for a
   * free worker. Polled, so each is late by up to one poll of the harness.
   */
  requeueDetections: number[];
  stuck: number;
  duplicatedScoreRows: number;
  missingScoreRows: number;
  scored: number;
}

/**
 * Kills busy workers with SIGKILL in rounds (each round: every worker that holds a lease is
 * killed at once), measures kill → re-run start for each killed submission, then waits for every
 * submission to settle and counts stuck ones and duplicated score rows. A killed worker is
 * started again at once under its own name, as its supervisor would: Kubernetes restarts the
 * container in its pod (PODIUM_WORKER_NAME is the pod name, infra/k8s), compose restarts the
 * container (`restart: unless-stopped`, the name holds its hostname), systemd's Restart=always
 * keeps the unit's environment.
 */
export async function killWorkersMidJob(opts: {
  db: Db;
  pool: WorkerPool;
  submissionIds: string[];
  workers: number;
  kills: number;
  instances: number;
  metrics: number;
  /** How long to wait for all submissions to settle after the last kill. */
  settleMs: number;
  log?: (m: string) => void;
}): Promise<KillReport> {
  const { db, pool, submissionIds } = opts;
  const log = opts.log ?? (() => undefined);
  const names = Array.from({ length: opts.workers }, (_, i) => `fault-w${i}-${process.pid}`);
  for (const name of names) pool.start(name);
  const pending: { submissionId: string; attempt: number; killedAt: number; requeued: boolean }[] = [];
  const detections: number[] = [];
  const requeueDetections: number[] = [];
  let kills = 0;
  let killedLeases = 0;
  const watch = async () => {
    for (const p of [...pending]) {
      const row = await db.submission.findUnique({ where: { id: p.submissionId }, select: { attempt: true, status: true } });
      if (!row) continue;
      const moved = row.attempt > p.attempt || row.status === 'SCORED' || row.status === 'FAILED';
      if (!p.requeued && (moved || row.status === 'QUEUED')) {
        p.requeued = true;
        requeueDetections.push((Date.now() - p.killedAt) / 1000);
      }
      // Re-run started: a new lease (attempt moved on), or settled (another path finished it).
      if (row.attempt > p.attempt || row.status === 'SCORED' || row.status === 'FAILED') {
        detections.push((Date.now() - p.killedAt) / 1000);
        pending.splice(pending.indexOf(p), 1);
      }
    }
  };
  const deadline = Date.now() + 20 * 60_000;
  while (kills < opts.kills && Date.now() < deadline) {
    await watch();
    const busy = await db.submission.findMany({
      where: { id: { in: submissionIds }, status: 'SCORING', leaseOwner: { in: [...pool.running.keys()] }, leaseExpiresAt: { gt: new Date() } },
      select: { id: true, attempt: true, leaseOwner: true },
    });
    if (busy.length === 0) {
      await sleep(100);
      continue;
    }
    // Every lease a killed process held is pending (measured), so a lease under a restarted
    // worker's name that is not pending is the new process's own.
    const live = busy.filter((b) => !pending.some((p) => p.submissionId === b.id));
    for (const owner of [...new Set(live.map((b) => defined(b.leaseOwner)))]) {
      const w = pool.running.get(owner);
      if (!w || kills >= opts.kills) continue;
      w.child.kill('SIGKILL');
      const killedAt = Date.now();
      pool.running.delete(owner);
      kills++;
      for (const b of live.filter((l) => l.leaseOwner === owner)) {
        pending.push({ submissionId: b.id, attempt: b.attempt, killedAt, requeued: false });
        killedLeases++;
        log(`kill ${kills}: ${owner} during attempt ${b.attempt} of submission ${b.id.slice(0, 8)}`);
      }
    }
    for (const name of names) if (!pool.running.has(name)) pool.start(name);
    await sleep(200);
  }
  const settleBy = Date.now() + opts.settleMs;
  for (;;) {
    await watch();
    const open = await db.submission.count({ where: { id: { in: submissionIds }, status: { in: ['QUEUED', 'SCORING'] } } });
    if ((open === 0 && pending.length === 0) || Date.now() > settleBy) break;
    await sleep(250);
  }
  for (const p of pending) {
    detections.push(Number.POSITIVE_INFINITY);
    if (!p.requeued) requeueDetections.push(Number.POSITIVE_INFINITY);
  }
  const stuck = await db.submission.count({ where: { id: { in: submissionIds }, status: { in: ['QUEUED', 'SCORING'] } } });
  const scored = await db.submission.findMany({ where: { id: { in: submissionIds }, status: 'SCORED' }, select: { id: true } });
  // Scores are stored one column per (submission, metric), one value per instance: a duplicate
  // would be a value beyond the expected count (the primary key already refuses a second column).
  const [stored] = await db.$queryRaw<{ values: number }[]>`
    SELECT coalesce(sum(scored), 0)::int AS values FROM score_column WHERE submission_id = ANY(${submissionIds}::uuid[])`;
  const expected = scored.length * opts.instances * opts.metrics;
  return {
    kills,
    killedLeases,
    detections,
    worstDetectionSeconds: detections.length ? Math.max(...detections) : 0,
    requeueDetections,
    stuck,
    duplicatedScoreRows: Math.max(0, defined(stored).values - expected),
    missingScoreRows: Math.max(0, expected - defined(stored).values),
    scored: scored.length,
  };
}

/** A started api process with its base URL; `script`: another build's `apps/api/main.js` than dist/'s. */
export async function startApi(env: Record<string, string>, nodeArgs: string[] = [], script?: string): Promise<{ api: RunningApp; baseUrl: string }> {
  const port = await freePort();
  const api = startApp('apps/api/src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1', PODIUM_LOG_FORMAT: 'json', PODIUM_WEB_DIST: '/nonexistent' }, { nodeArgs, ...(script ? { script } : {}) });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor('the api', async () => (await fetch(`${baseUrl}/api/health`)).status === 200 || null, 120_000);
  } catch (e) {
    await api.stop();
    throw new Error(`${String(e)}\napi logs:\n${api.logs.join('')}`);
  }
  return { api, baseUrl };
}

export interface SingleKillReport {
  kills: number;
  /** Seconds from each kill to the submission handed back (QUEUED, or already re-run or settled when seen). */
  handedBack: number[];
  /** Seconds from each kill to the start of the re-run (a new claim), or to it being settled. */
  rerun: number[];
}

/**
 * Kills one busy worker at a time while the others live (booted: a heartbeat in the last 15 s), and
 * waits for its submission to be handed back and re-run before the next kill; the killed worker
 * is replaced afterwards. This measures detection by the survivors' reapers, apart from the boot
 * time of replacement workers (which bounds the rounds of {@link killWorkersMidJob}).
 */
export async function killOneAtATime(opts: { db: Db; pool: WorkerPool; submissionIds: string[]; workers: number; kills: number; timeoutMs?: number; log?: (m: string) => void }): Promise<SingleKillReport> {
  const { db, pool, submissionIds } = opts;
  const log = opts.log ?? (() => undefined);
  let serial = 0;
  const spawn = () => pool.start(`single-w${serial++}-${process.pid}`);
  while (pool.running.size < opts.workers) spawn();
  const handedBack: number[] = [];
  const rerun: number[] = [];
  let kills = 0;
  const deadline = Date.now() + (opts.timeoutMs ?? 15 * 60_000);
  while (kills < opts.kills && Date.now() < deadline) {
    const names = [...pool.running.keys()];
    const booted = await db.workerHeartbeat.count({ where: { name: { in: names }, lastSeenAt: { gt: new Date(Date.now() - 15_000) } } });
    const busy = await db.submission.findFirst({
      where: { id: { in: submissionIds }, status: 'SCORING', leaseOwner: { in: names }, leaseExpiresAt: { gt: new Date() } },
      select: { id: true, attempt: true, leaseOwner: true },
    });
    // Kill only while every worker is up, so that survivors can notice.
    if (!busy || booted < opts.workers) {
      await sleep(100);
      continue;
    }
    const owner = defined(busy.leaseOwner);
    const w = pool.running.get(owner);
    if (!w) continue;
    w.child.kill('SIGKILL');
    pool.running.delete(owner);
    const killedAt = Date.now();
    kills++;
    log(`single kill ${kills}: ${owner} during attempt ${busy.attempt} of submission ${busy.id.slice(0, 8)}`);
    let back: number | null = null;
    for (;;) {
      const row = await db.submission.findUnique({ where: { id: busy.id }, select: { attempt: true, status: true } });
      const moved = !row || row.attempt > busy.attempt || row.status === 'SCORED' || row.status === 'FAILED';
      if (back === null && (moved || row.status === 'QUEUED')) back = (Date.now() - killedAt) / 1000;
      if (moved) {
        rerun.push((Date.now() - killedAt) / 1000);
        break;
      }
      if (Date.now() > deadline) {
        rerun.push(Number.POSITIVE_INFINITY);
        break;
      }
      await sleep(100);
    }
    handedBack.push(back ?? Number.POSITIVE_INFINITY);
    log(`  handed back after ${(back ?? Number.POSITIVE_INFINITY).toFixed(1)} s, re-run after ${(rerun[rerun.length - 1] ?? Number.POSITIVE_INFINITY).toFixed(1)} s`);
    while (pool.running.size < opts.workers) spawn();
  }
  return { kills, handedBack, rerun };
}
