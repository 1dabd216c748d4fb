/**
 * The api killed mid-upload (issue #12): SIGKILL while the body is still arriving, and at
 * moments right after it arrived (parsing, the storing transaction, the response). Each upload
 * ends either absent or fully stored with its outputs and its scoring job, never half-written.
 */
import { request as httpRequest } from 'node:http';
import { createDb, outputExtent, type Db } from '@podium/db';
import { createFaultTask, sleep, startApi, type FaultTask } from './support/faults';
import { databaseUrl } from './support/processes';
import { defined } from '../support/defined';

const SCHEMA = 'pgboss_api_kill';
const INSTANCES = 2000;

function multipartBody(task: FaultTask, systemName: string): { body: Buffer; type: string } {
  const boundary = `----podium${Date.now()}`;
  const file = task.instanceIds.map((id, i) => JSON.stringify({ id, output: `output number ${i} `.repeat(4) })).join('\n');
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.from(
    part('teamId', task.teamId) + part('systemName', systemName) + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="o.jsonl"\r\n\r\n${file}\r\n--${boundary}--\r\n`,
  );
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe('api killed mid-upload', () => {
  let db: Db;
  let task: FaultTask;

  beforeAll(async () => {
    db = createDb(databaseUrl(), { maxConnections: 2 });
    task = await createFaultTask(db, { instances: INSTANCES, totalLimit: 100 });
  }, 60_000);
  afterAll(async () => {
    await db?.$disconnect();
  });

  /** Absent, or present with every output and exactly one queued job. */
  async function outcome(systemName: string): Promise<string> /* 'absent', 'complete' or the submission's status */ {
    const sub = await db.submission.findFirst({ where: { phaseId: task.phaseId, systemName } });
    if (!sub) return 'absent';
    const outputs = (await outputExtent(db, sub.id))?.count ?? 0;
    const [jobs] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${SCHEMA}.job WHERE data->>'submissionId' = $1`, sub.id);
    return outputs === INSTANCES && defined(jobs).n === 1 ? 'complete' : `half-written: ${outputs} outputs, ${defined(jobs).n} jobs`;
  }

  it.each([
    ['while the body is arriving', -1],
    ['right after the body arrived', 0],
    ['50 ms after the body arrived', 50],
    ['150 ms after the body arrived', 150],
  ])('leaves the upload absent or complete when killed %s', async (_label, delayMs) => {
    const { api, baseUrl } = await startApi({ DATABASE_URL: databaseUrl(), PODIUM_QUEUE_SCHEMA: SCHEMA });
    const systemName = `killed-${delayMs}-${Date.now()}`;
    const { body, type } = multipartBody(task, systemName);
    const url = new URL(`${baseUrl}/api/phases/${task.phaseId}/submissions`);
    const req = httpRequest({ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': type, 'content-length': body.length, authorization: `Bearer ${task.participantToken}` } });
    const answered = new Promise<number>((resolve) => {
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', () => resolve(0));
    });
    if (delayMs < 0) {
      req.write(body.subarray(0, body.length >> 1));
      await sleep(200);
      api.child.kill('SIGKILL');
      req.destroy();
    } else {
      req.end(body);
      if (delayMs > 0) await sleep(delayMs);
      api.child.kill('SIGKILL');
    }
    const status = await answered;
    await api.stop();
    const result = await outcome(systemName);
    expect(['absent', 'complete']).toContain(result);
    // A 201 that reached the client means it was stored.
    if (status === 201) expect(result).toBe('complete');
    if (delayMs < 0) expect(result).toBe('absent');
  }, 90_000);
});
