/**
 * What a participant downloads from a real api process (issue #22): the standalone `podium`
 * command (GET /api/cli/podium.cjs), run with plain `node` in an empty folder, where no package
 * of the repository can be found, against the same server; and the bulk download of a phase's
 * outputs (GET /api/phases/:id/outputs.jsonl): organisers only until the phase is published.
 */
import { createDb, type Db } from '@podium/db';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFaultTask, type FaultTask } from './support/faults';
import { databaseUrl, graphqlClient, startApiProcess, type RunningApp } from './support/processes';

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

  it("gives every output of a phase with its manifest to organisers before publishing and to everyone after", async () => {
    const t = await createFaultTask(db, { instances: 3, totalLimit: 5 });
    const participant = graphqlClient(baseUrl, t.participantToken);
    const organiser = graphqlClient(baseUrl, t.organiserToken);
    const { submit } = await participant.request<{ submit: { id: string } }>(
      `mutation($p: ID!, $t: ID!) { submit(phaseId: $p, teamId: $t, systemName: "bulk-sys", description: "a test system", content: "one\\ntwo\\nthree\\n", format: TEXT) { id } }`,
      { p: t.phaseId, t: t.teamId },
    );
    const get = (token?: string) => fetch(`${baseUrl}/api/phases/${t.phaseId}/outputs.jsonl`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    // Open (board public): outputs with scores are an oracle of the references, so not yet for a team or anonymous.
    expect((await get()).status).toBe(403);
    expect((await get(t.participantToken)).status).toBe(403);
    const before = await get(t.organiserToken);
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');

    await organiser.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: t.phaseId });
    await organiser.request(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: t.phaseId });
    const after = await get();
    expect(after.status).toBe(200);
    expect(after.headers.get('content-disposition')).toMatch(/^attachment; filename="faults-[0-9a-f]{8}-test-outputs\.jsonl"$/);
    const [manifestLine, ...outputLines] = (await after.text()).trimEnd().split('\n');
    const manifest = JSON.parse(manifestLine ?? '{}') as { type: string; phase: { id: string }; testSet: { instances: number }; submissions: Record<string, unknown>[] };
    expect(manifest.type).toBe('manifest');
    expect(manifest.phase.id).toBe(t.phaseId);
    expect(manifest.testSet.instances).toBe(3);
    // No worker runs here: the submission is still queued, so closing made it no primary (only a scored one is chosen).
    expect(manifest.submissions).toEqual([
      expect.objectContaining({ id: submit.id, team: t.teamName, system: 'bulk-sys', description: 'a test system', primary: false, baseline: false, status: 'queued', scores: [] }),
    ]);
    expect(outputLines.map((l) => JSON.parse(l) as unknown)).toEqual(
      ['one', 'two', 'three'].map((output, position) => ({ type: 'output', submissionId: submit.id, instanceId: `i${position}`, position, output })),
    );
  }, 60_000);
});
