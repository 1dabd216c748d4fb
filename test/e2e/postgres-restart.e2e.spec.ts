/**
 * PostgreSQL restarted mid-job (issue #12), on a PostgreSQL of this test's own (the shared test
 * database must stay up): the worker scoring a submission and the api both lose their
 * connections, log that they reconnect, and carry on: the submission ends SCORED exactly once,
 * the api answers 503 while the database is down and 201/200 after.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createDb, type Db } from '@podium/db';
import { createFaultTask, sleep, startApi, storedScoreCount, workerPool, type FaultTask, type WorkerPool } from './support/faults';
import { startOwnPostgres, type OwnPostgres } from './support/postgres';
import { freePort, repoRoot, waitFor, type RunningApp } from './support/processes';

const INSTANCES = 30;
const NAME = `faults-restart-${process.pid}`;

describe('PostgreSQL restarted mid-job', () => {
  let pg: OwnPostgres;
  let port: number;
  let db: Db;
  let task: FaultTask;
  let api: RunningApp;
  let baseUrl: string;
  let pool: WorkerPool;

  beforeAll(async () => {
    port = await freePort();
    pg = await startOwnPostgres(NAME, port, true);
    execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: pg.url }, stdio: 'ignore' });
    db = createDb(pg.url, { maxConnections: 2 });
    task = await createFaultTask(db, { instances: INSTANCES, totalLimit: 10 });
    ({ api, baseUrl } = await startApi({ DATABASE_URL: pg.url }));
    pool = workerPool({
      DATABASE_URL: pg.url, PODIUM_WORKER_POLL_SECONDS: '0.5', PODIUM_WORKER_BATCH: '1', PODIUM_FAULT_SCORING_DELAY_MS: '3000',
      PODIUM_LEASE_TTL_SECONDS: '4', PODIUM_LEASE_RENEW_SECONDS: '0.5', PODIUM_LEASE_REAP_SECONDS: '0.5',
    });
    pool.start(`restart-w-${process.pid}`);
  }, 150_000);
  afterAll(async () => {
    await pool?.stopAll();
    await api?.stop();
    await db?.$disconnect().catch(() => undefined);
    if (pg) await pg.stop();
    rmSync(path.join(repoRoot, '.data', `postgres-${NAME}`), { recursive: true, force: true });
  });

  const upload = async (systemName: string) => {
    const form = new FormData();
    form.append('teamId', task.teamId);
    form.append('systemName', systemName);
    form.append('file', new Blob([task.instanceIds.map((id, i) => JSON.stringify({ id, output: `the reference sentence number ${(i + 1) % INSTANCES}` })).join('\n')]), 'o.jsonl');
    return fetch(`${baseUrl}/api/phases/${task.phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${task.participantToken}` }, body: form });
  };

  it('finishes the job once after the restart; api and worker reconnect and say so', async () => {
    const res = await upload('before-restart');
    expect(res.status).toBe(201);
    const { submissionId } = (await res.json()) as { submissionId: string };
    await waitFor('the worker to start scoring', async () => (await db.submission.findUniqueOrThrow({ where: { id: submissionId } })).status === 'SCORING', 60_000);

    await pg.stop();
    const down = await fetch(`${baseUrl}/api/health`);
    expect(down.status).toBe(503);
    const refused = await upload('while-down');
    expect(refused.status).toBe(503);
    // Down longer than the job's remaining 3 s: its final save fails while the database is away
    // (the retry path), and pg-boss's own job updates fail unawaited in the worker.
    await sleep(4500);
    pg = await startOwnPostgres(NAME, port, true);

    await waitFor('the submission to be scored', async () => (await db.submission.findUniqueOrThrow({ where: { id: submissionId } })).status === 'SCORED', 60_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\nworker logs:\n${pool.logs().slice(-5000)}`);
    });
    expect(await storedScoreCount(db, submissionId)).toBe(INSTANCES);
    // The worker that lost its database mid-job is still the one running.
    expect(pool.running.size).toBe(1);
    await waitFor('the api to report a healthy database', async () => (await fetch(`${baseUrl}/api/health`)).status === 200, 30_000);
    const after = await upload('after-restart');
    expect(after.status).toBe(201);
    expect(await db.submission.count({ where: { phaseId: task.phaseId } })).toBe(2);
    const logs = pool.logs() + api.logs.join('');
    expect(logs).toMatch(/"event":"reconnecting"/);
    expect(pool.logs()).toMatch(/"event":"reconnected"/);
  }, 150_000);
});
