/**
 * What a participant downloads from a real api process (issue #22): the standalone `podium`
 * command (GET /api/cli/podium.cjs), run with plain `node` in an empty folder, where no package
 * of the repository can be found, against the same server.
 */
import { createDb, type Db } from '@podium/db';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFaultTask, type FaultTask } from './support/faults';
import { databaseUrl, startApiProcess, type RunningApp } from './support/processes';

describe('participant downloads (real api process)', () => {
  let db: Db;
  let api: RunningApp;
  let baseUrl: string;
  let task: FaultTask;
  let work: string;

  beforeAll(async () => {
    db = createDb(databaseUrl(), { maxConnections: 2 });
    ({ api, baseUrl } = await startApiProcess(databaseUrl(), 120_000, { PODIUM_QUEUE_SCHEMA: 'pgboss_participant_downloads' }));
    task = await createFaultTask(db, { instances: 3, totalLimit: 5 });
    // Outside the repository: nothing but Node.js is there to resolve a package from.
    work = mkdtempSync(path.join(tmpdir(), 'podium-participant-'));
  }, 150_000);
  afterAll(async () => {
    await api?.stop();
    await db?.$disconnect();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const node = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['podium.cjs', ...args], { cwd: work, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', HOME: work, ...env }, timeout: 60_000 });

  it('serves the podium command as one file that runs with node where nothing is installed', async () => {
    const res = await fetch(`${baseUrl}/api/cli/podium.cjs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="podium.cjs"');
    writeFileSync(path.join(work, 'podium.cjs'), Buffer.from(await res.arrayBuffer()));
    const help = node(['--help']);
    expect(help.status).toBe(0);
    expect(help.stderr).toMatch(/^ {2}submit /m);
    expect(help.stderr).toMatch(/^ {2}test-input /m);
    // A hypothesis identical to its reference scores BLEU 100 (sacreBLEU's definition).
    writeFileSync(path.join(work, 'hyp.txt'), 'the cat sat on the mat\n');
    const score = node(['score', '--metric', 'bleu', '--hyp', 'hyp.txt', '--ref', 'hyp.txt']);
    expect(score.status).toBe(0);
    expect((JSON.parse(score.stdout) as { corpus: number }).corpus).toBeCloseTo(100, 6);
  }, 60_000);

  it('fetches the test input and submits with the downloaded command, as the Submit page shows', () => {
    const input = node(['test-input', '--url', baseUrl, '--phase', task.phaseId, '--format', 'tsv', '--out', 'test-input.tsv']);
    expect(input.status).toBe(0);
    expect(readFileSync(path.join(work, 'test-input.tsv'), 'utf8')).toBe('id\tsource\ni0\tquelle 0\ni1\tquelle 1\ni2\tquelle 2\n');
    writeFileSync(path.join(work, 'outputs.txt'), 'a\nb\nc\n');
    // --no-wait: this suite runs no worker; the upload itself is what is checked here.
    const submit = node(['submit', '--url', baseUrl, '--phase', task.phaseId, '--token', task.participantToken, '--system', 'downloaded', '--no-wait', 'outputs.txt']);
    expect([submit.status, submit.stderr]).toEqual([0, expect.stringMatching(/submitted downloaded/)]);
  }, 60_000);
});
