// Tests that run the API without a worker (their own pg-boss schema) compute the leaderboards
// the API queued as a worker would: this drains the `compute-leaderboards` queue of that schema
// with real pg-boss and stores the boards through @podium/leaderboard (in-process; the worker's
// thread is tested in apps/worker/src/leaderboard/leaderboard.integration.spec.ts).
import { COMPUTE_LEADERBOARDS_QUEUE, computeLeaderboardsJobV1, ensureQueue } from '@podium/contracts';
import { createDb, LeaderboardRepository, type Db } from '@podium/db';
import { computePhaseBoards, leaderboardViewSchema } from '@podium/leaderboard';
import PgBoss from 'pg-boss';

export class LeaderboardJobRunner {
  private boss: PgBoss | null = null;
  private readonly db: Db;
  private readonly boards: LeaderboardRepository;
  /** Jobs run so far. */
  ran = 0;

  constructor(
    private readonly databaseUrl: string,
    private readonly queueSchema: string,
    /** As the worker's PODIUM_LEADERBOARD_PAIRS_APART_ABOVE (default: every pair in the document). */
    private readonly options: { pairsApartAbove?: number } = {},
  ) {
    this.db = createDb(databaseUrl, { maxConnections: 2 });
    this.boards = new LeaderboardRepository(this.db);
  }

  private async queue(): Promise<PgBoss> {
    if (!this.boss) {
      const boss = new PgBoss({ connectionString: this.databaseUrl, schema: this.queueSchema, max: 2, supervise: false, schedule: false });
      await boss.start();
      await ensureQueue(boss, COMPUTE_LEADERBOARDS_QUEUE);
      this.boss = boss;
    }
    return this.boss;
  }

  /** Runs every queued leaderboard job (and those they leave behind); returns how many ran. */
  async runPending(): Promise<number> {
    const boss = await this.queue();
    let n = 0;
    for (;;) {
      const jobs = await boss.fetch(COMPUTE_LEADERBOARDS_QUEUE, { batchSize: 10 });
      if (jobs.length === 0) return n;
      for (const job of jobs) {
        const payload = computeLeaderboardsJobV1.parse(job.data);
        const views = payload.views ? payload.views.map((v) => leaderboardViewSchema.parse(v)) : null;
        await computePhaseBoards(this.db, payload.phaseId, views, (b) => this.boards.store(payload.phaseId, b.stamp, [b]), this.options);
        await boss.complete(COMPUTE_LEADERBOARDS_QUEUE, job.id);
        n++;
        this.ran++;
      }
    }
  }

  /**
   * Reads a board until it is current: while it answers `updating`, runs the queued jobs and
   * reads again (a read of a view nobody computed yet is what queues it).
   */
  async settled<T extends { updating: boolean }>(read: () => Promise<T>, attempts = 4): Promise<T> {
    for (let i = 0; ; i++) {
      const board = await read();
      if (!board.updating || i >= attempts) return board;
      await this.runPending();
    }
  }

  async stop(): Promise<void> {
    await this.boss?.stop({ graceful: false, wait: true, timeout: 5_000 });
    await this.db.$disconnect();
  }
}

/**
 * Reads a board until it is current (`updating: false`), as a client polls the page while a
 * worker computes: the first read of a view queues it, and each scored submission or organiser
 * action makes the next stamp's board appear a moment later.
 */
export async function currentBoard<T extends { updating: boolean }>(read: () => Promise<T>, timeoutMs = 90_000, pollMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const board = await read();
    if (!board.updating) return board;
    if (Date.now() > deadline) throw new Error(`the leaderboard was still updating after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
