/**
 * Another phase's boards recomputed while a bench serves (bench:serving `--recompute`, issue #28):
 * a second task and phase of S systems × N instances scored with BLEU in the bench's database
 * (score columns and corpus statistics stored as the worker stores them, as
 * bench:incremental-board does), and a worker process from dist/ on the same database kept
 * computing that phase's boards: each round moves the phase's stamp (its significance seed, so
 * every analysis starts afresh), asks the api for the board (which queues the job as a reader's
 * request does), and starts the next round when the worker logs the phase's boards stored.
 *
 * Also what took the CPU meanwhile, from /proc: the worker's threads grouped by nice value (its
 * board threads, its event loop and V8's and libuv's helpers), PostgreSQL (every backend), the
 * api and this process. `boardThreadsAt(0)` puts the worker's niced threads at 0 every 100 ms
 * (the state before ADR 0035's niced board thread; raising a priority needs root or
 * CAP_SYS_NICE); `boardThreadsAt(null)` gives them back the nice value they had set.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { getMetric, parseMetricOptions } from '@podium/metrics';
import { IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { SCHED_IDLE_POLICY } from '@podium/leaderboard';
import { mulberry32 } from '@podium/ranking';
import { startApp, type RunningApp } from '../../test/e2e/support/processes';
import { machineCpuSeconds, treeCpuSeconds } from './cpu-profile';
import { POOL, sentencePool } from './sentence-pool';

/** A phase of `systems` submissions × `instances` instances with stored BLEU scores; returns its id. */
export async function scoredPhase(db: Db, systems: number, instances: number): Promise<string> {
  const tasks = new TaskRepository(db);
  const submissions = new SubmissionRepository(db);
  const identity = new IdentityRepository(db);
  const organiser = await identity.createUser('bench-recompute-organiser', Role.ORGANISER);
  const task = await tasks.createTask({ slug: 'bench-recompute', title: 'recomputed', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'bleu', name: 'bleu', options: {} }], createdById: organiser.id });
  const phase = await tasks.createPhase({ taskId: task.id, name: 'recomputed', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: systems, totalLimit: systems, leaderboardBeforeClose: true });
  const testSet = await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: instances }, (_, i) => ({ externalId: `seg${String(i).padStart(7, '0')}`, source: `s${i}`, references: [`r${i}`] })));
  // Boards read score columns and stored statistics, never texts: one output per submission.
  const [firstInstance] = await tasks.instanceIdsOf(testSet.id);
  if (!firstInstance) throw new Error('the test set has no instances');
  const m = getMetric('bleu', parseMetricOptions('bleu', {}), 1);
  const rows = sentencePool().map((p) => m.stats(p.hyp, [p.ref]));
  const sentence = rows.map((r) => m.corpusFromStats([r]));
  for (let s = 0; s < systems; s++) {
    const team = await identity.createTeam(`recompute-team-${s}`, []);
    const sub = await submissions.create(
      { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: `system-${String(s).padStart(4, '0')}`, description: '', checksum: `r${s}`, outputs: [{ instanceId: firstInstance.id, text: 'x' }] },
      async () => undefined,
    );
    const rng = mulberry32(1000 + s);
    const pick = Int32Array.from({ length: instances }, () => Math.min(POOL - 1, Math.max(0, Math.round(POOL * (0.25 + (0.5 * s) / systems + 0.2 * rng.nextNormal())))));
    const stats = Array.from(pick, (p) => rows[p] ?? []);
    const sum = new Array<number>(stats[0]?.length ?? 0).fill(0);
    for (const r of stats) r.forEach((v, c) => (sum[c] = (sum[c] ?? 0) + v));
    await submissions.saveScores(
      sub.id,
      [{ metric: 'bleu', signature: m.sentenceSignature, values: Float64Array.from(pick, (p) => sentence[p] ?? 0), stats: m.additiveStats ? stats : null }],
      [{ metric: 'bleu', signature: m.signature, value: m.corpusFromStats([sum]) }],
    );
  }
  return phase.id;
}

interface ThreadStat {
  cpu: number;
  nice: number;
  /** Scheduling policy (sched(7)): 0 SCHED_OTHER, 5 SCHED_IDLE. */
  policy: number;
}

/** CPU seconds (utime + stime) and nice value of each thread of `pid`, from /proc/<pid>/task. */
export function threadStats(pid: number): Map<number, ThreadStat> {
  const out = new Map<number, ThreadStat>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime: fields 14–15 of stat; nice: field 19; policy: field 41 (11, 12, 16 and 38 after the command).
      out.set(Number(tid), { cpu: (Number(f[11]) + Number(f[12])) / 100, nice: Number(f[16]), policy: Number(f[38]) });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Where CPU went over a window, in cores (CPU-s ÷ wall s). */
export interface CpuSplit {
  seconds: number;
  /** The worker's threads by nice value. */
  workerByNice: Record<string, number>;
  postgres: number;
  api: number;
  bench: number;
  /** Cores the hypervisor gave another guest (/proc/stat steal). */
  stolen: number;
}

export interface Recomputing {
  /** Rounds whose boards the worker stored so far. */
  rounds(): number;
  /**
   * null: the worker's own nice values; a number: its niced threads set to it (needs privilege);
   * 'idle': its niced threads under SCHED_IDLE (chrt(1); back to SCHED_OTHER needs privilege).
   */
  boardThreadsAt(nice: number | 'idle' | null): void;
  /** Starts a CPU window; its end returns the split. */
  cpuWindow(apiPid: number): () => CpuSplit;
  stop(): Promise<void>;
}

/**
 * Starts a worker from dist/ on `pgUrl` and keeps it computing `phaseId`'s boards; `ask` requests
 * the phase's board from the api (which queues its computation). `poll`, when given, is called
 * every 100 ms until the round's boards are stored, as a client waiting for the new board does
 * (bench:platform's driver asks GraphQL for it every 100 ms).
 */
export function keepRecomputing(db: Db, pgUrl: string, pgPid: number, phaseId: string, ask: () => Promise<void>, poll?: () => Promise<void>): Recomputing {
  const worker: RunningApp = startApp('apps/worker/src/main.ts', { DATABASE_URL: pgUrl, PODIUM_WORKER_NAME: 'bench-recompute', PODIUM_WORKER_POLL_SECONDS: '0.5' });
  const pid = worker.child.pid ?? 0;
  const stored = () => worker.logs.join('').split(`leaderboards of phase ${phaseId}:`).length - 1;
  // The threads the worker has before its first computation (read once it logged it waits for jobs).
  const early = new Set<number>();
  void (async () => {
    while (!worker.logs.join('').includes('is waiting for jobs') && worker.child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    for (const tid of threadStats(pid).keys()) early.add(tid);
  })();
  const run = { stopped: false };
  const stopping = () => run.stopped;
  let forced: number | 'idle' | null = null;
  const loop = (async () => {
    while (!stopping()) {
      const before = stored();
      await db.$executeRaw`UPDATE phase SET significance_seed = significance_seed + 1 WHERE id = ${phaseId}::uuid`;
      await ask();
      while (!stopping() && stored() === before) {
        if (worker.child.exitCode !== null) throw new Error(`the recomputing worker exited: ${worker.logs.join('').slice(-2000)}`);
        if (poll) await poll();
        await new Promise((r) => setTimeout(r, poll ? 100 : 250));
      }
    }
  })();
  // Said at once (not left unhandled until stop): a worker that exits, an api that stops answering.
  loop.catch((e: unknown) => {
    if (!stopping()) process.stderr.write(`[bench] the recompute loop stopped: ${e instanceof Error ? e.message : String(e)}\n`);
  });
  // Threads put at `forced`, with the nice value they had set themselves (given back on `null`).
  const own = new Map<number, number>();
  // Threads this bench put under SCHED_IDLE, and those it took out of it (given back on `null`).
  const idled = new Set<number>();
  const unidled = new Set<number>();
  const chrt = (tid: number, policy: '--idle' | '--other') => {
    try {
      execFileSync('chrt', [policy, '--pid', '0', String(tid)], { stdio: 'ignore' });
    } catch {
      // the thread ended meanwhile
    }
  };
  const renice = setInterval(() => {
    if (forced === null) return;
    for (const [tid, t] of threadStats(pid)) {
      if (forced === 'idle') {
        if (t.nice !== 0 && t.policy !== SCHED_IDLE_POLICY) {
          chrt(tid, '--idle');
          idled.add(tid);
        }
        continue;
      }
      if (t.policy === SCHED_IDLE_POLICY) {
        chrt(tid, '--other');
        unidled.add(tid);
      }
      if (t.nice !== forced && (t.nice !== 0 || unidled.has(tid) || own.has(tid))) {
        if (!own.has(tid)) own.set(tid, t.nice);
        setPriority(tid, forced);
      }
    }
  }, 100);
  return {
    rounds: () => stored(),
    boardThreadsAt: (nice) => {
      forced = nice;
      const alive = threadStats(pid);
      if (nice !== 'idle') {
        for (const tid of idled) if (alive.get(tid)?.policy === SCHED_IDLE_POLICY) chrt(tid, '--other');
        idled.clear();
      }
      if (nice !== null) return;
      for (const [tid, n] of own) if (alive.has(tid)) setPriority(tid, n);
      own.clear();
      for (const tid of unidled) if (alive.has(tid)) chrt(tid, '--idle');
      unidled.clear();
    },
    cpuWindow: (apiPid) => {
      const t0 = performance.now();
      const w0 = threadStats(pid);
      const pg0 = treeCpuSeconds(pgPid);
      const api0 = treeCpuSeconds(apiPid);
      const b0 = process.cpuUsage();
      const steal0 = machineCpuSeconds().steal;
      return () => {
        const seconds = (performance.now() - t0) / 1000;
        const workerByNice: Record<string, number> = {};
        for (const [tid, t] of threadStats(pid)) {
          // The event loop; the threads the process started with (V8's platform workers: GC
          // marking and compilation for every isolate; libuv's); the board threads started later.
          const kind = tid === pid ? 'main' : early.has(tid) ? 'helpers' : 'board threads';
          const key = `${kind} nice ${t.nice}${t.policy === SCHED_IDLE_POLICY ? ' idle' : ''}`;
          workerByNice[key] = (workerByNice[key] ?? 0) + (t.cpu - (w0.get(tid)?.cpu ?? 0)) / seconds;
        }
        const b = process.cpuUsage(b0);
        return { seconds, workerByNice, postgres: (treeCpuSeconds(pgPid) - pg0) / seconds, api: (treeCpuSeconds(apiPid) - api0) / seconds, bench: (b.user + b.system) / 1e6 / seconds, stolen: (machineCpuSeconds().steal - steal0) / seconds };
      };
    },
    stop: async () => {
      run.stopped = true;
      clearInterval(renice);
      await worker.stop();
      await loop.catch(() => undefined);
    },
  };
}

export function formatCpuSplit(s: CpuSplit): string {
  const c = (x: number) => x.toFixed(2);
  const worker = Object.entries(s.workerByNice).sort().map(([k, v]) => `${k} ${c(v)}`).join(', ');
  return `cores used: worker {${worker}}, PostgreSQL ${c(s.postgres)}, api ${c(s.api)}, load generator ${c(s.bench)}; stolen by the host ${c(s.stolen)}`;
}
