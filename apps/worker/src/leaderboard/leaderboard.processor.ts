import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { COMPUTE_LEADERBOARDS_QUEUE, computeLeaderboardsJobV1, ensureQueue, sendLeaderboardJob, type ComputeLeaderboardsJob } from '@podium/contracts';
import { LeaderboardRepository } from '@podium/db';
import { LeaseLostError, type LeaseHolder } from '@podium/domain';
import { abortsComputation, BoardColumnCache, computeInThread, leaderboardViewSchema, schedTimes, StarvationWatch, staleWork, STALE_BOARD_BOUND_MS, type AnalysisStage, type BoardYield, type LeaderboardView, type ThreadSummary } from '@podium/leaderboard';
import { Client } from 'pg';
import PgBoss from 'pg-boss';
import { LeaseKeeper } from '../leases/lease-keeper';
import { PG_BOSS, WORKER_CONFIG } from '../tokens';

/** What a job computed: the last computation's summary; `overtaken`, the one before it whose stamp the last score of a burst moved on. */
export interface JobSummary extends ThreadSummary {
  overtaken?: ThreadSummary;
  /** A computation stopped because its SCHED_IDLE threads starved (BoardYield), computed again at nice 10 in the same job. */
  starved?: ThreadSummary;
}

/** What computeLocked returns: the threads' summary, and whether it stopped them for starving. */
type LockedSummary = ThreadSummary & { starvedIdle?: boolean };

/** Below this share of a core over LeaderboardTiming.starvedWindowMs (while waiting to run), a SCHED_IDLE board thread starves. */
const STARVED_RUN_SHARE = 0.05;

/** Namespace (first key) of the per-phase advisory lock of leaderboard computations. */
const PHASE_LOCK_NAMESPACE = 0x4c42; // 'LB'

/** Timing of the stale-work and lock rules (tests shorten them). */
export interface LeaderboardTiming {
  /** How often the stamp is polled while a thread computes. */
  staleCheckMs: number;
  /** Progress guarantee of isStaleWork. */
  staleBoundMs: number;
  /** How long a job waits for another worker's computation of the same phase before handing the job back. */
  lockWaitMs: number;
  /** Delay of the job handed back. */
  requeueSeconds: number;
  /** How long a board thread under SCHED_IDLE may starve (StarvationWatch) before it is stopped. */
  starvedWindowMs: number;
  /** After a thread starved, how long this worker's board threads yield with nice 10 alone. */
  idleBackoffMs: number;
}
// The stamp poll is one indexed query a phase (freshness); every 0.5 s, not 1.5 s, so that a
// computation the last score overtakes stops 0.25 s after it on average, not 0.75 s (issue #28).
// A starving thread (ADR 0046) is given 10 s: a recomputation that waits behind a burst of
// requests or a scoring job of a few seconds goes on; one behind every core kept busy for longer
// is computed again at nice 10, which the kernel gives about a tenth of a core against each
// nice-0 thread, for the next 10 minutes.
export const LEADERBOARD_TIMING: LeaderboardTiming = { staleCheckMs: 500, staleBoundMs: STALE_BOARD_BOUND_MS, lockWaitMs: 5_000, requeueSeconds: 2, starvedWindowMs: 10_000, idleBackoffMs: 600_000 };

/**
 * Consumes leaderboard jobs, one at a time per worker: computes the boards of a phase in a
 * worker thread (the event loop keeps renewing scoring leases meanwhile) and stores each as it
 * is done. A bad payload is dropped; any error fails the job for pg-boss's retry.
 *
 * Issue #11: during a burst of scored submissions only the newest stamp's boards matter.
 * - One computation per phase at a time across workers: a session advisory lock on the phase,
 *   held for the computation. A job that finds it held waits up to `lockWaitMs` (the holder
 *   usually drops stale work within a poll), then completes and hands the phase back as a job
 *   delayed by `requeueSeconds` (coalesced with one already waiting).
 * - Stale work is dropped: every `staleCheckMs` (and in the thread between views) the phase's
 *   stamp is read; when it has moved on, unless the progress guarantee holds (isStaleWork: the
 *   default board — or, with none, the first score — is older than `staleBoundMs` while
 *   submissions still wait to be scored, twice that once none does), the thread stops. During a
 *   burst a fill of the memos ahead of the boards is finished first (issue #28: each thread fills
 *   its analyses' memos before any board, at the scoring workers' priority while the phase is being
 *   scored, so the memos keep pace with the scores even when the boards do not), and so is the
 *   analysis in progress when it keeps a memo no fill did (the next computation reuses it); else
 *   the thread is terminated at once, as it is, fill or not, when nothing is left to score (a
 *   fill stores its memo every FILL_SYSTEMS_AT_ONCE systems: what it filled is kept).
 *   Between views it stops, except that during a burst a default-views computation does one more
 *   view (staleWork, goesOn). A job for the phase is then sent (coalesced with the one the change
 *   sent), except when nothing is left to score: the job then computes the final stamp itself,
 *   under the lock it holds (JobSummary.overtaken).
 */
@Injectable()
export class LeaderboardProcessor implements OnApplicationBootstrap {
  private readonly log = new Logger(LeaderboardProcessor.name);

  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly boards: LeaderboardRepository,
    @Optional() private readonly leases?: LeaseKeeper,
  ) {}

  /** Timing of the stale-work and lock rules (not injected; tests set shorter ones). */
  timing: LeaderboardTiming = { ...LEADERBOARD_TIMING };

  /** Smallest systems × instances whose boards keep an analysis memo (unset: MEMO_MIN_CELLS; tests set 0). */
  memoMinCells: number | undefined = undefined;

  /**
   * The score columns this worker's board threads read, kept for the next computation of their
   * phase (column-cache.ts; PODIUM_LEADERBOARD_COLUMN_CACHE_MB, 0: none). Made on first use.
   */
  private columnCache: BoardColumnCache | null | undefined = undefined;

  /** The column cache, null when the setting turns it off. */
  get columns(): BoardColumnCache | null {
    if (this.columnCache === undefined) {
      const mb = this.config.PODIUM_LEADERBOARD_COLUMN_CACHE_MB;
      this.columnCache = Number.isFinite(mb) && mb > 0 ? new BoardColumnCache(mb * 1024 * 1024) : null;
    }
    return this.columnCache;
  }

  /** Phases whose threads have started an analysis in this computation (cleared with `computing`). */
  readonly analysing = new Set<string>();

  /** Phase → the stamp this worker's thread computes now (set once the thread has read it). */
  readonly computing = new Map<string, string>();

  /** Until when (ms since the epoch) board threads yield with nice 10 alone: one of them starved under SCHED_IDLE. */
  private idleStarvedUntil = 0;

  /** Until when (ms since the epoch) this worker's board threads yield with nice 10 alone (0: never starved). */
  get idleBackoffUntil(): number {
    return this.idleStarvedUntil;
  }

  async onApplicationBootstrap(): Promise<void> {
    await ensureQueue(this.boss, COMPUTE_LEADERBOARDS_QUEUE, 8, 300, (m) => this.log.warn(m));
    await this.boss.work(
      COMPUTE_LEADERBOARDS_QUEUE,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.config.PODIUM_WORKER_POLL_SECONDS },
      async ([job]) => (job ? this.handle(job) : undefined),
    );
    this.log.log(`${this.config.PODIUM_WORKER_NAME} is waiting for jobs on '${COMPUTE_LEADERBOARDS_QUEUE}'`);
  }

  async handle(job: PgBoss.JobWithMetadata<unknown>): Promise<JobSummary | null> {
    const payload = computeLeaderboardsJobV1.safeParse(job.data);
    if (!payload.success) {
      this.log.error({ msg: `job ${job.id} has an invalid payload and is dropped: ${payload.error.message}`, jobId: job.id });
      return null;
    }
    const { phaseId, reason } = payload.data;
    const views: LeaderboardView[] | null = payload.data.views ? payload.data.views.map((v) => leaderboardViewSchema.parse(v)) : null;
    return this.compute(phaseId, views, job.id, reason);
  }

  /**
   * Computes and stores boards of a phase (views null: its default views), holding the phase's
   * lock. Null: another worker held the lock, and the phase was handed back as a delayed job; or
   * this run lost the lock and its boards were refused (fencing, logged `fencing.refused`).
   */
  async compute(phaseId: string, views: LeaderboardView[] | null, jobId: string | null = null, reason: ComputeLeaderboardsJob['reason'] = 'requested'): Promise<JobSummary | null> {
    const started = Date.now();
    const lock = await this.lockPhase(phaseId);
    if (!lock) {
      const sent = await sendLeaderboardJob(this.boss, phaseId, reason, views, undefined, this.timing.requeueSeconds);
      this.log.log({ msg: `[${this.config.PODIUM_WORKER_NAME}] leaderboards of phase ${phaseId} are being computed by another worker; handed back (${sent ? `job ${sent}` : 'a job already waits'})`, jobId, phaseId, event: 'leaderboards-busy' });
      return null;
    }
    try {
      // The lock is a session's: a partition that drops its connection frees it for another
      // worker while this one's thread still computes. The token fences this run's stores.
      const holder = await this.boards.claimBoardLease(phaseId, this.config.PODIUM_WORKER_NAME);
      let summary: JobSummary;
      try {
        const { starvedIdle, ...first } = await this.computeLocked(phaseId, views, holder);
        summary = first;
        if (starvedIdle) {
          // Its SCHED_IDLE threads starved (other work kept every core busy): computed again at
          // once at nice 10, which the kernel still gives a share of each core (ADR 0046).
          this.log.warn({ msg: `[${this.config.PODIUM_WORKER_NAME}] leaderboards of phase ${phaseId}: a board thread ran under ${Math.round(STARVED_RUN_SHARE * 100)} % of the time for ${this.timing.starvedWindowMs} ms at SCHED_IDLE; computing again at nice 10 (SCHED_IDLE again in ${Math.round(this.timing.idleBackoffMs / 1000)} s)`, jobId, phaseId, event: 'leaderboards-starved' });
          const { starvedIdle: _again, ...again } = await this.computeLocked(phaseId, views, holder);
          summary = { ...again, starved: first };
        } else if (summary.abandoned && (await this.boards.scoringCount(phaseId)) === 0) {
          // Overtaken by the last score of a burst: the final stamp's boards at once, under the lock
          // this job holds (issue #28). Handing the phase to the job the last score sent cost its
          // lock wait, hand-back delay and poll (2–4 s at 100 × 100,000); that job then finds the
          // boards stored.
          this.log.log({ msg: `[${this.config.PODIUM_WORKER_NAME}] leaderboards of phase ${phaseId}: stamp ${summary.stamp.slice(0, 8)} overtaken by the last score after ${Date.now() - started} ms${fillNote(summary.fills)}; computing the final stamp`, jobId, phaseId, event: 'leaderboards-overtaken' });
          const overtaken = summary;
          const { starvedIdle: _final, ...final } = await this.computeLocked(phaseId, views, holder);
          summary = { ...final, overtaken };
        }
      } catch (e) {
        if (!(e instanceof LeaseLostError)) throw e;
        if (this.leases) this.leases.refused(e, 'leaderboard');
        else this.log.warn({ msg: `late write refused: ${e.message}`, event: 'fencing.refused', phaseId });
        return null;
      }
      if (summary.abandoned) {
        // The change that moved the stamp sent a job; send one anyway (coalesced) in case it was lost.
        await sendLeaderboardJob(this.boss, phaseId, reason, views).catch((e: unknown) =>
          this.log.warn({ msg: `could not queue the leaderboards of phase ${phaseId}: ${e instanceof Error ? e.message : String(e)}`, phaseId }),
        );
      }
      this.log.log({
        msg: `[${this.config.PODIUM_WORKER_NAME}] leaderboards of phase ${phaseId}: ${summary.views} views (${summary.computed} computed, ${summary.stored} stored) for stamp ${summary.stamp.slice(0, 8)}${summary.abandoned ? ', abandoned: the stamp moved on' : ''} in ${Date.now() - started} ms${fillNote(summary.fills)}${memoNote(summary.memoUses)}${columnNote(summary.columnReads)}`,
        jobId,
        phaseId,
        event: summary.abandoned ? 'leaderboards-abandoned' : 'leaderboards-stored',
      });
      return summary;
    } finally {
      await lock.release();
    }
  }

  /** Runs the thread, polling the stamp to drop stale work. */
  private async computeLocked(phaseId: string, views: LeaderboardView[] | null, holder: LeaseHolder): Promise<LockedSummary> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // Nothing being scored: no memo fill at the scoring workers' priority, so the threads yield to
    // serving before they load their modules (ThreadInput.yieldFromStart).
    const yieldFromStart = (await this.boards.scoringCount(phaseId)) === 0;
    // Threads under SCHED_IDLE, watched for starvation (PODIUM_LEADERBOARD_YIELD, ADR 0046), only
    // when nothing of the phase is being scored: behind the scoring workers they starved (four
    // computations stopped after 10 s each during bench:platform's 100 × 100,000 burst), and at
    // nice 10 they keep a tenth of a core's pace.
    const yieldTo: BoardYield = yieldFromStart && this.config.PODIUM_LEADERBOARD_YIELD === 'idle' && Date.now() >= this.idleStarvedUntil ? 'idle' : 'nice';
    const idleThreads = new Map<number, StarvationWatch>();
    const starved = { idle: false };
    const starvation = yieldTo === 'idle'
      ? setInterval(() => {
          for (const [tid, watch] of idleThreads) {
            const times = schedTimes(tid);
            if (!times) idleThreads.delete(tid);
            else if (watch.add(Date.now(), times) && !controller.signal.aborted) {
              starved.idle = true;
              this.idleStarvedUntil = Date.now() + this.timing.idleBackoffMs;
              controller.abort();
            }
          }
        }, this.timing.staleCheckMs)
      : undefined;
    let checking = false;
    // What each thread is doing (AnalysisStage). A fill of the memos ahead of the boards is not
    // dropped during a burst: its work is the next computation's, which would redo it. Overtaken by
    // the last score ('drop') it is (issue #28: at 100 × 100,000 the fills under way then held the
    // final computation back 15.7 s, at the end of a burst that had slowed them; the final
    // computation adds their few systems itself, on cores no scoring shares). A stale analysis that keeps
    // a memo is finished during a burst (its per-system and per-pair work is the next computation's:
    // at 100 × 10,000 under load, dropping a nearly finished analysis at the end of a burst left the
    // final board to be computed from scratch); one that keeps nothing a fill did not is dropped at once.
    const stages: AnalysisStage[] = [];
    const ended: boolean[] = [];
    const watch = (stamp: string) => {
      // Several threads tell their stamps; the first one's is watched.
      if (timer) return;
      this.computing.set(phaseId, stamp);
      timer = setInterval(() => {
        if (checking || controller.signal.aborted) return;
        checking = true;
        // Otherwise the thread stops by itself between views (PhaseBoardsOptions.staleness).
        staleWork(this.boards, phaseId, stamp, this.timing.staleBoundMs)
          .then((verdict) => {
            // Before its first analysis a thread is still reading scores and memo (3–10 s at
            // 100 × 10,000 under scoring load, while a burst moves the stamp every second): during a
            // burst it goes on to that analysis. At its end ('drop') everything stops at once, memo
            // or not: the final stamp's computation adds the few systems the kept memo lacks (well
            // under a second each), sooner than the outdated analysis would finish (at 100 × 10,000
            // finishing it made the final board start 40 s after the last score).
            if (abortsComputation(verdict, stages, ended, of)) controller.abort();
          })
          .catch((e: unknown) => this.log.warn({ msg: `stamp check of phase ${phaseId} failed: ${e instanceof Error ? e.message : String(e)}`, phaseId }))
          .finally(() => (checking = false));
      }, this.timing.staleCheckMs);
    };
    // The analyses shared out between threads (the default board in the first); one view, one thread.
    // (A config made in a test may lack the setting: NaN, then one thread.)
    const of = views !== null && views.length < 2 ? 1 : Math.max(1, Math.trunc(this.config.PODIUM_LEADERBOARD_THREADS) || 1);
    try {
      const summaries = await Promise.all(
        Array.from({ length: of }, (_, index) =>
          computeInThread(
            {
              databaseUrl: this.config.DATABASE_URL, phaseId, views, staleBoundMs: this.timing.staleBoundMs, pairsApartAbove: this.config.PODIUM_LEADERBOARD_PAIRS_APART_ABOVE,
              ...(of > 1 ? { share: { index, of } } : {}),
              yieldFromStart,
              yieldTo,
              ...(this.memoMinCells === undefined ? {} : { memoMinCells: this.memoMinCells }),
            },
            (board) => this.boards.store(phaseId, board.stamp, [board], holder),
            {
              onStamp: watch,
              onAnalysis: (stage) => {
                stages[index] = stage;
                this.analysing.add(phaseId);
              },
              onYield: (y) => {
                if (y.idle && y.tid !== null) idleThreads.set(y.tid, new StarvationWatch(this.timing.starvedWindowMs, STARVED_RUN_SHARE));
              },
              signal: controller.signal,
              ...(this.columns ? { columns: this.columns } : {}),
            },
          ).then((summary) => {
            ended[index] = true;
            return summary;
          }, (e: unknown) => {
            // One thread failed: the others stop too (their boards stored so far stay).
            controller.abort();
            throw e;
          }),
        ),
      );
      const [first, ...rest] = summaries;
      if (!first) throw new Error('no leaderboard thread ran');
      const merged = rest.reduce((a, b) => ({ ...a, computed: a.computed + b.computed, stored: a.stored + b.stored, abandoned: a.abandoned || b.abandoned, memoUses: [...(a.memoUses ?? []), ...(b.memoUses ?? [])], fills: [...(a.fills ?? []), ...(b.fills ?? [])], ...sumReads(a.columnReads, b.columnReads) }), first);
      return { ...merged, threads: summaries.length, ...(starved.idle ? { starvedIdle: true } : {}) };
    } finally {
      clearInterval(timer);
      clearInterval(starvation);
      this.computing.delete(phaseId);
      this.analysing.delete(phaseId);
    }
  }

  /**
   * Takes the phase's advisory lock on a connection of its own (released with it, also when the
   * process dies), waiting up to `lockWaitMs`. Null: still held by another session.
   */
  private async lockPhase(phaseId: string): Promise<{ release(): Promise<void> } | null> {
    const client = new Client({ connectionString: this.config.DATABASE_URL, application_name: `${this.config.PODIUM_WORKER_NAME}:leaderboard-lock` });
    await client.connect();
    const deadline = Date.now() + this.timing.lockWaitMs;
    try {
      for (;;) {
        const r = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS locked', [PHASE_LOCK_NAMESPACE, phaseId]);
        if (r.rows[0]?.locked === true) break;
        if (Date.now() >= deadline) {
          await client.end();
          return null;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    return {
      release: async () => {
        await client.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [PHASE_LOCK_NAMESPACE, phaseId]).catch(() => undefined);
        await client.end().catch(() => undefined);
      },
    };
  }
}

/** "; memos: systems kept+added per analysis" for the log line (how far each memo served; ADR 0027). */
/** The column reads of two threads together (either may have none). */
function sumReads(a: ThreadSummary['columnReads'], b: ThreadSummary['columnReads']): Pick<ThreadSummary, 'columnReads'> {
  if (!a && !b) return {};
  return { columnReads: { cached: (a?.cached ?? 0) + (b?.cached ?? 0), read: (a?.read ?? 0) + (b?.read ?? 0) } };
}

/** "; score columns kept/read: …" for the log line (column-cache.ts). */
function columnNote(reads: ThreadSummary['columnReads']): string {
  return reads ? `; score columns: ${reads.cached} kept, ${reads.read} read` : '';
}

function memoNote(uses: ThreadSummary['memoUses']): string {
  if (!uses || uses.length === 0) return '';
  return `; memos (systems kept+computed): ${uses.map((u) => `${u.use.systemsReused}+${u.use.systemsComputed}`).join(', ')}`;
}

/** "; memos filled (systems+pairs computed): …" for the log line: what the fills ahead of the analyses added (issue #28). */
function fillNote(fills: ThreadSummary['fills']): string {
  const added = (fills ?? []).filter((f) => f.use.systemsComputed > 0 || f.use.pairsComputed > 0);
  if (added.length === 0) return '';
  return `; memos filled (systems+pairs computed): ${added.map((f) => `${f.use.systemsComputed}+${f.use.pairsComputed}`).join(', ')}`;
}
