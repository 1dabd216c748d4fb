/**
 * Hostile input against a real api process (issue #12): a few hundred generated malformed
 * requests are all refused with a 4xx (never a 5xx) and write no row; 50 simultaneous uploads
 * by one team land exactly at the phase's limit.
 */
import { createDb, type Db } from '@podium/db';
import { createFaultTask, startApi, type FaultTask } from './support/faults';
import { concurrentSubmits, malformedCases, sendMalformed } from './support/malformed';
import { databaseUrl, type RunningApp } from './support/processes';
import { defined } from '../support/defined';

const MAX_UPLOAD = 64 * 1024;

describe('hostile input (real api process)', () => {
  let db: Db;
  let api: RunningApp;
  let baseUrl: string;
  let task: FaultTask;

  beforeAll(async () => {
    db = createDb(databaseUrl(), { maxConnections: 2 });
    task = await createFaultTask(db, { instances: 6, totalLimit: 10 });
    // Rate limits and the bound on uploads in flight off here (they are tested on their own, the
    // latter in security-edge.e2e.spec.ts): 50 uploads at once must reach the quota check.
    ({ api, baseUrl } = await startApi({
      DATABASE_URL: databaseUrl(), PODIUM_QUEUE_SCHEMA: 'pgboss_input_faults', PODIUM_MAX_UPLOAD_BYTES: String(MAX_UPLOAD), PODIUM_RATE_LIMIT: '0', PODIUM_RATE_LIMIT_UPLOADS: '0',
      PODIUM_UPLOADS_PER_IDENTITY: '50', PODIUM_UPLOADS_PER_ADDRESS: '50',
    }));
  }, 150_000);
  afterAll(async () => {
    await api?.stop();
    await db?.$disconnect();
  });

  it('refuses 300 generated malformed requests with a 4xx, none with a 5xx, and stores nothing', async () => {
    const rows = async () => ({
      submissions: await db.submission.count({ where: { phaseId: task.phaseId } }),
      outputs: await db.submissionOutput.count({ where: { submission: { phaseId: task.phaseId } } }),
      // Teams are global and other suites create theirs meanwhile: count only names a case tried.
      teams: await db.team.count({ where: { name: { startsWith: 't' , endsWith: 'eam' }, NOT: { name: { contains: '-' } } } }),
    });
    const before = await rows();
    const report = await sendMalformed(baseUrl, malformedCases(task, 300, 12, MAX_UPLOAD), 6);
    expect(report.failures).toEqual([]);
    expect(report.tried).toBe(300);
    expect(report.fiveXX).toBe(0);
    expect(report.accepted).toBe(0);
    expect(report.statuses['413']).toBeGreaterThan(0);
    expect(await rows()).toEqual(before);
  }, 120_000);

  it('says which line holds a NUL and which field holds a lone surrogate', async () => {
    const form = new FormData();
    form.append('teamId', task.teamId);
    form.append('systemName', 'nul-line');
    form.append('file', new Blob([task.instanceIds.map((id, i) => JSON.stringify({ id, output: i === 2 ? 'a\u0000b' : 'ok' })).join('\n')]), 'o.jsonl');
    const res = await fetch(`${baseUrl}/api/phases/${task.phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${task.participantToken}` }, body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_INPUT', line: 3, error: expect.stringMatching(/^line 3 \(instance 'i2'\): "output" contains a NUL character/) });
    const gql = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${task.participantToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation($d: String) { submit(phaseId: "x", teamId: "y", systemName: "s", content: "c", description: $d) { id } }', variables: { d: 'one\ntwo \ud800' } }),
    });
    const body = (await gql.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(defined(body.errors[0]).extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'description', line: 2 });
    expect(defined(body.errors[0]).message).toMatch(/lone UTF-16 surrogate/);
  }, 30_000);

  it('lets exactly 10 of 50 simultaneous uploads by one team through a limit of 10', async () => {
    // A task of its own: filling the shared one to its limit would refuse the other cases' uploads for the wrong reason.
    const full = await createFaultTask(db, { instances: 6, totalLimit: 10 });
    const result = await concurrentSubmits(baseUrl, full, 50);
    expect(result).toEqual({ sent: 50, accepted: 10, refused: 40, other: [] });
    expect(await db.submission.count({ where: { phaseId: full.phaseId, teamId: full.teamId } })).toBe(10);
  }, 60_000);
});
