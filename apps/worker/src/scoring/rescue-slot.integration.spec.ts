/**
 * The rescue slot (docs/adr/0017) against a real PostgreSQL and a real pg-boss (its own schema):
 * a worker whose only regular slot is busy with a long job still starts a handed-back job
 * (REQUEUE_PRIORITY) beside it within a poll period, while an ordinary queued job waits for the
 * slot. Scoring is a stand-in that records starts: what is under test is which job runs when.
 */
import { randomUUID } from 'node:crypto';
import type { WorkerConfig } from '@podium/config';
import { SCORE_SUBMISSION_QUEUE, sendScoreJob } from '@podium/contracts';
import PgBoss from 'pg-boss';
import { ScoringProcessor } from './scoring.processor';
import type { ScoringService } from './scoring.service';
import { defined } from '../../../../test/support/defined';

jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;
const SCHEMA = 'pgboss_rescue_spec';

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeDb('the rescue slot (real PostgreSQL, real pg-boss)', () => {
  let boss: PgBoss;
  let processor: ScoringProcessor;
  const started: string[] = [];
  const finished: string[] = [];
  let releaseSlow: () => void = () => undefined;
  const slowDone = new Promise<void>((r) => (releaseSlow = r));
  const slow = randomUUID();

  beforeAll(async () => {
    boss = new PgBoss({ connectionString: defined(url, 'DATABASE_URL'), max: 4, schema: SCHEMA, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    const scoring = {
      leases: { start: () => undefined, stop: async () => undefined, held: new Map() },
      scoreBatch: async (ids: string[]) => {
        started.push(...ids);
        if (ids.includes(slow)) await slowDone;
        finished.push(...ids);
        return ids.map(() => ({ kind: 'skipped', reason: 'stand-in' }));
      },
    } as unknown as ScoringService;
    const config = { PODIUM_WORKER_NAME: 'rescue-spec', PODIUM_WORKER_CONCURRENCY: 1, PODIUM_WORKER_BATCH: 1, PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_QUEUE_SCHEMA: SCHEMA, PODIUM_WORKER_SHUTDOWN_GRACE_SECONDS: 1 } as WorkerConfig;
    processor = new ScoringProcessor(boss, config, scoring);
    await processor.onApplicationBootstrap();
  });

  afterAll(async () => {
    releaseSlow();
    await processor?.beforeApplicationShutdown('test');
  });

  it('starts a handed-back job beside a busy slot; an ordinary queued job waits for the slot', async () => {
    await sendScoreJob(boss, slow, 'submitted');
    await until('the long job to start', () => started.includes(slow));
    const ordinary = randomUUID();
    const handedBack = randomUUID();
    await sendScoreJob(boss, ordinary, 'submitted');
    await sendScoreJob(boss, handedBack, 'requeue');
    await until('the handed-back job to run beside the long one', () => finished.includes(handedBack));
    // The long job still holds the only regular slot, and the ordinary job was not taken early.
    expect(finished).not.toContain(slow);
    expect(started).not.toContain(ordinary);
    // Give the rescue slot a few more periods: with no handed-back job waiting it takes nothing.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(started).not.toContain(ordinary);
    releaseSlow();
    await until('the ordinary job to run once the slot is free', () => finished.includes(ordinary));
    // The rescued job was completed in pg-boss, not left active.
    const stateOf = async (id: string) => {
      const rows = await boss.getDb().executeSql(`SELECT state FROM ${SCHEMA}.job WHERE name = $1 AND data->>'submissionId' = $2`, [SCORE_SUBMISSION_QUEUE, id]);
      return (rows.rows[0] as { state: string } | undefined)?.state;
    };
    const end = Date.now() + 10_000;
    while ((await stateOf(handedBack)) !== 'completed' && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(await stateOf(handedBack)).toBe('completed');
  });
});
