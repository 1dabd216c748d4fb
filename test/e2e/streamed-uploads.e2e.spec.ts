/**
 * Streamed uploads against a real api process and PostgreSQL (issue #28, docs/adr/0028): a
 * 100,000-line file is parsed as it streams and COPYed into the database; a bad line near its end
 * and a client that goes away mid-stream leave nothing stored, and the api takes the next upload.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createDb, readOutputTexts, TaskRepository, type Db } from '@podium/db';
import { outputsChecksum } from '../../apps/api/src/lifecycle/outputs-checksum';
import { createFaultTask, sleep, startApi, type FaultTask } from './support/faults';
import { databaseUrl, type RunningApp } from './support/processes';

const LINES = 100_000;
/** Line k's output: plain words, with a tab, a backslash and a quote now and then (COPY escapes them). */
const output = (k: number) => (k % 1000 === 7 ? `tab\there \\ back "q" ${k}` : `the system output number ${k} ä`);

describe('streamed uploads (real api process)', () => {
  let db: Db;
  let api: RunningApp;
  let baseUrl: string;
  let task: FaultTask;

  beforeAll(async () => {
    db = createDb(databaseUrl(), { maxConnections: 2 });
    task = await createFaultTask(db, { instances: 10, totalLimit: 20 });
    // The phase's test set (i0…i9 from createFaultTask) grown to 100,000 instances in one
    // statement: through uploadTestSet it takes minutes on a loaded machine, and it is not what is tested.
    const phase = await new TaskRepository(db).phaseById(task.phaseId);
    const testSetId = phase?.testSetId ?? '';
    await db.$executeRaw`INSERT INTO instance (id, test_set_id, external_id, position, source, "references")
      SELECT gen_random_uuid(), ${testSetId}::uuid, 'i' || g, g, 'quelle ' || g, ARRAY['reference ' || g] FROM generate_series(10, ${LINES - 1}) AS g`;
    await db.$executeRaw`UPDATE test_set SET instance_count = ${LINES} WHERE id = ${testSetId}::uuid`;
    ({ api, baseUrl } = await startApi({ DATABASE_URL: databaseUrl(), PODIUM_QUEUE_SCHEMA: 'pgboss_streamed_uploads', PODIUM_RATE_LIMIT: '0', PODIUM_RATE_LIMIT_UPLOADS: '0' }));
  }, 240_000);
  afterAll(async () => {
    await api?.stop();
    await db?.$disconnect();
  });

  const stored = async () => ({
    submissions: await db.submission.count({ where: { phaseId: task.phaseId } }),
    outputs: await db.submissionOutput.count({ where: { submission: { phaseId: task.phaseId } } }),
  });

  async function upload(systemName: string, file: string, format = 'text'): Promise<Response> {
    const form = new FormData();
    form.append('teamId', task.teamId);
    form.append('systemName', systemName);
    form.append('format', format);
    form.append('file', new Blob([file]), 'o.txt');
    return fetch(`${baseUrl}/api/phases/${task.phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${task.participantToken}` }, body: form });
  }

  it('refuses a 100,000-line upload whose line 99,999 is bad, naming the line and instance, and stores nothing of it', async () => {
    const before = await stored();
    const lines = Array.from({ length: LINES }, (_, k) => (k === LINES - 2 ? 'bad \u0000 byte' : output(k)));
    const res = await upload('bad-near-the-end', lines.join('\n') + '\n');
    expect(res.status).toBe(400);
    // Line 99,999 holds instance i99998 (line k is the k-th instance); its NUL is character 5.
    expect(await res.json()).toMatchObject({ code: 'INVALID_INPUT', line: 99_999, instanceId: 'i99998', error: "line 99999 (instance 'i99998') contains a NUL character (U+0000), which cannot be stored (character 5)" });
    expect(await stored()).toEqual(before);
  }, 120_000);

  it('stores nothing when the client goes away mid-stream, and takes the next upload', async () => {
    const before = await stored();
    const boundary = `----podium${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="teamId"\r\n\r\n${task.teamId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="systemName"\r\n\r\ncut-off\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="o.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const half = Buffer.from(Array.from({ length: LINES / 2 }, (_, k) => output(k)).join('\n') + '\n');
    const url = new URL(`${baseUrl}/api/phases/${task.phaseId}/submissions`);
    const answered = await new Promise<string>((resolve) => {
      const req = http.request({
        host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
        // The whole body would be twice what is sent: the api reads half a file, then the socket closes.
        headers: { authorization: `Bearer ${task.participantToken}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 2 * half.length + 100) },
      });
      req.on('response', (r) => resolve(`answered ${r.statusCode}`));
      req.on('error', () => resolve('closed'));
      req.write(head);
      req.write(half, () => setTimeout(() => req.destroy(), 300));
    });
    // The client never reads an answer; the api must not have stored anything meanwhile.
    expect(answered).toBe('closed');
    await sleep(1000);
    expect(await stored()).toEqual(before);
    // No upload connection was left inside a transaction.
    const open = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'podium-api-uploads' AND state LIKE 'idle in transaction%'`;
    expect(open[0]?.n).toBe(0);
    const ok = await upload('after-the-cut', Array.from({ length: LINES }, (_, k) => output(k)).join('\n') + '\n');
    expect(ok.status).toBe(201);
  }, 120_000);

  it('stores a 100,000-line upload exactly, with the checksum of its outputs in test-set order', async () => {
    const texts = Array.from({ length: LINES }, (_, k) => output(k));
    // JSONL in reverse order: the checksum is of the outputs in test-set order, whatever the line order.
    const file = texts.map((t, k) => JSON.stringify({ id: `i${k}`, output: t })).reverse().join('\n');
    const res = await upload('whole', file, 'jsonl');
    expect(res.status).toBe(201);
    const { submissionId } = (await res.json()) as { submissionId: string };
    const sub = await db.submission.findUniqueOrThrow({ where: { id: submissionId } });
    const ids = texts.map((_, k) => `i${k}`);
    // outputsChecksum is what the api stored before uploads streamed (apps/api/src/lifecycle/outputs-checksum.ts).
    expect(sub).toMatchObject({ checksum: outputsChecksum(ids, texts.map((text, k) => ({ instanceId: `i${k}`, text }))), progressTotal: LINES, status: 'QUEUED' });
    // One row, the texts in test-set position order (the upload was JSONL in another order).
    expect((await readOutputTexts(db, [submissionId])).get(submissionId)?.texts).toEqual(texts);
  }, 120_000);
});
