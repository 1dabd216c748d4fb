/**
 * Task bundles (issue #22) against a real api process, a real scoring worker and PostgreSQL:
 * `podium task export --with-submissions` writes one file with the task, its phase, test set
 * (with references) and submissions; `podium task import` creates the task again under another
 * slug in one transaction, the worker scores the imported outputs, and the imported phase's
 * board equals the original one (same systems, teams, corpus scores and ranks). A slug clash,
 * a broken file and callers who do not organise the task are refused with clear messages.
 */
import { createDb, type Db } from '@podium/db';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compiledApp } from '../support/compiled-app';
import { createFaultTask, type FaultTask } from './support/faults';
import { databaseUrl, graphqlClient, repoRoot, startApiProcess, startApp, waitFor, type RunningApp } from './support/processes';

const QUEUE_SCHEMA = 'pgboss_task_bundle';

interface Board {
  updating: boolean;
  systems: { system: string; team: string; corpusScore: number | null; rank: { corpus: number | null } }[];
}

describe('task bundles: export, import, same board (real api and worker processes)', () => {
  let db: Db;
  let api: RunningApp;
  let worker: RunningApp;
  let baseUrl: string;
  let task: FaultTask;
  let slug: string;
  let work: string;

  beforeAll(async () => {
    db = createDb(databaseUrl(), { maxConnections: 2 });
    ({ api, baseUrl } = await startApiProcess(databaseUrl(), 120_000, { PODIUM_QUEUE_SCHEMA: QUEUE_SCHEMA }));
    worker = startApp('apps/worker/src/main.ts', { DATABASE_URL: databaseUrl(), PODIUM_QUEUE_SCHEMA: QUEUE_SCHEMA, PODIUM_WORKER_NAME: 'bundle-worker', PODIUM_WORKER_POLL_SECONDS: '0.5' });
    task = await createFaultTask(db, { instances: 3, totalLimit: 5 });
    slug = (await db.phase.findUniqueOrThrow({ where: { id: task.phaseId }, include: { task: true } })).task.slug;
    work = mkdtempSync(path.join(tmpdir(), 'podium-bundle-'));
  }, 150_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await db?.$disconnect();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const podium = (args: string[]) => spawnSync(process.execPath, [compiledApp('apps/cli/src/main.ts'), ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });

  const board = async (phaseId: string): Promise<Board> =>
    waitFor(
      'a current board',
      async () => {
        const { leaderboard } = await graphqlClient(baseUrl, task.organiserToken).request<{ leaderboard: Board }>(
          `query($p: ID!) { leaderboard(phaseId: $p, allSubmissions: true) { updating systems { system team corpusScore rank { corpus } } } }`,
          { p: phaseId },
        );
        return leaderboard.updating ? null : leaderboard;
      },
      120_000,
    );

  const allScored = (phaseId: string, n: number) =>
    waitFor('every submission scored', async () => (await db.submission.count({ where: { phaseId, status: 'SCORED' } })) === n, 150_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\nworker logs:\n${worker.logs.join('')}`);
    });

  it('exports a task with its submissions and imports it under another slug, where it scores to the same board', async () => {
    const participant = graphqlClient(baseUrl, task.participantToken);
    // Two systems: one equal to the references (chrF 100, sacreBLEU's definition), one not.
    const exact = ['the reference sentence number 0', 'the reference sentence number 1', 'the reference sentence number 2'].join('\\n');
    const { submit } = await participant.request<{ submit: { id: string } }>(
      `mutation($p: ID!, $t: ID!) { submit(phaseId: $p, teamId: $t, systemName: "exact", description: "copies the references", content: "${exact}\\n", format: TEXT) { id } }`,
      { p: task.phaseId, t: task.teamId },
    );
    await participant.request(`mutation($s: ID!) { updateSubmissionMetadata(id: $s, paperUrl: "https://example.org/paper", codeUrl: "https://example.org/code") { id } }`, { s: submit.id });
    await participant.request(
      `mutation($p: ID!, $t: ID!) { submit(phaseId: $p, teamId: $t, systemName: "rough", content: "a reference\\nsentence two\\nnumber 2 here\\n", format: TEXT) { id } }`,
      { p: task.phaseId, t: task.teamId },
    );
    await allScored(task.phaseId, 2);
    const original = await board(task.phaseId);
    expect(original.systems.map((s) => s.system)).toEqual(['exact', 'rough']);
    expect(original.systems[0]?.corpusScore).toBeCloseTo(100, 9);

    const file = path.join(work, 'bundle.json');
    const exported = podium(['task', 'export', '--url', baseUrl, '--task', slug, '--out', file, '--with-submissions', '--token', task.organiserToken]);
    expect([exported.status, exported.stderr]).toEqual([0, '']);
    expect(JSON.parse(exported.stdout)).toEqual(expect.objectContaining({ task: slug, phases: 1, testSets: 1, instances: 3, submissions: 2 }));
    const bundle = JSON.parse(readFileSync(file, 'utf8')) as { testSets: { instances: { references: string[] }[] }[]; submissions: { systemName: string; paperUrl: string | null; outputs: string[] }[] };
    expect(bundle.testSets[0]?.instances[2]?.references).toEqual(['the reference sentence number 2']);
    expect(bundle.submissions.map((s) => [s.systemName, s.paperUrl, s.outputs.length])).toEqual([['exact', 'https://example.org/paper', 3], ['rough', null, 3]]);

    // The same slug again: refused, nothing written.
    const clash = podium(['task', 'import', file, '--url', baseUrl, '--token', task.organiserToken]);
    expect(clash.status).not.toBe(0);
    expect(clash.stderr).toContain(`a task with slug '${slug}' already exists on this Podium; import it under another slug`);

    const imported = podium(['task', 'import', file, '--url', baseUrl, '--slug', `${slug}-copy`, '--token', task.organiserToken]);
    expect([imported.status, imported.stderr]).toEqual([0, '']);
    const result = JSON.parse(imported.stdout) as { slug: string; phases: { id: string; name: string }[]; submissions: number; teamsCreated: string[] };
    expect(result).toEqual(expect.objectContaining({ slug: `${slug}-copy`, submissions: 2, teamsCreated: [] }));
    const phaseId = result.phases[0]?.id ?? '';
    await allScored(phaseId, 2);
    const copy = await board(phaseId);
    expect(copy.systems.map((s) => [s.system, s.team, s.rank.corpus])).toEqual(original.systems.map((s) => [s.system, s.team, s.rank.corpus]));
    copy.systems.forEach((s, k) => expect(s.corpusScore).toBeCloseTo(original.systems[k]?.corpusScore ?? NaN, 9));
    const links = await db.submission.findFirstOrThrow({ where: { phaseId, systemName: 'exact' } });
    expect([links.paperUrl, links.codeUrl]).toEqual(['https://example.org/paper', 'https://example.org/code']);
    const audit = await db.auditEntry.findFirstOrThrow({ where: { action: 'task.import', targetId: (await db.task.findUniqueOrThrow({ where: { slug: `${slug}-copy` } })).id } });
    expect(audit.details).toEqual(expect.objectContaining({ phases: 1, instances: 3, submissions: 2, teamsCreated: 0 }));
  }, 400_000);

  it('creates the teams a bundle names that this Podium lacks, without members, registered for the task', async () => {
    const res = await fetch(`${baseUrl}/api/tasks/${slug}/bundle.json?submissions=1`, { headers: { authorization: `Bearer ${task.organiserToken}` } });
    expect(res.status).toBe(200);
    const bundle = (await res.json()) as { submissions: { team: string }[] };
    const newTeam = `${slug}-elsewhere`;
    for (const s of bundle.submissions) s.team = newTeam;
    const r = await fetch(`${baseUrl}/api/tasks/import?slug=${slug}-teams`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${task.organiserToken}` }, body: JSON.stringify(bundle) });
    expect(r.status).toBe(201);
    expect(((await r.json()) as { teamsCreated: string[] }).teamsCreated).toEqual([newTeam]);
    const team = await db.team.findUniqueOrThrow({ where: { name: newTeam }, include: { members: true, registrations: true } });
    expect([team.members.length, team.ownerId, team.registrations.map((x) => x.status)]).toEqual([0, null, ['APPROVED']]);
  }, 60_000);

  it('names every problem of a broken bundle and writes nothing', async () => {
    const res = await fetch(`${baseUrl}/api/tasks/${slug}/bundle.json`, { headers: { authorization: `Bearer ${task.organiserToken}` } });
    const bundle = (await res.json()) as { phases: { closesAt: string; opensAt: string; testSet: string | null }[]; task: { kind: string } };
    const phase = bundle.phases[0];
    if (!phase) throw new Error('the bundle has no phase');
    phase.closesAt = phase.opensAt;
    phase.testSet = 'missing';
    bundle.task.kind = 'poetry';
    const r = await fetch(`${baseUrl}/api/tasks/import?slug=${slug}-broken`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${task.organiserToken}` }, body: JSON.stringify(bundle) });
    expect(r.status).toBe(400);
    const { error } = (await r.json()) as { error: string };
    expect(error).toMatch(/^the file is not a task bundle this Podium can import: /);
    expect(error).toContain('task.kind: must be one of mt, summarization, data-to-text, other');
    expect(error).toContain("phases[0].closesAt: phase 'test' closes before it opens");
    expect(error).toContain("phases[0].testSet: phase 'test' names test set 'missing', which the bundle does not hold");
    expect(await db.task.findUnique({ where: { slug: `${slug}-broken` } })).toBeNull();
    // The CLI checks the file before sending it, in the same words.
    const file = path.join(work, 'broken.json');
    writeFileSync(file, JSON.stringify(bundle));
    const cli = podium(['task', 'import', file, '--url', baseUrl, '--slug', `${slug}-broken`, '--token', task.organiserToken]);
    expect(cli.status).not.toBe(0);
    expect(cli.stderr).toContain("phases[0].closesAt: phase 'test' closes before it opens");
  }, 60_000);

  it("gives the bundle (it holds the references) to the task's organisers only", async () => {
    const other = await createFaultTask(db, { instances: 1, totalLimit: 1 });
    const get = (token?: string) => fetch(`${baseUrl}/api/tasks/${slug}/bundle.json`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    expect((await get()).status).toBe(401);
    expect((await get(task.participantToken)).status).toBe(403);
    const foreign = await get(other.organiserToken);
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: string }).error).toMatch(/only organisers of this task may do this/);
    // A participant may not create tasks, so may not import one either.
    const r = await fetch(`${baseUrl}/api/tasks/import?slug=${slug}-p`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${task.participantToken}` }, body: '{}' });
    expect(r.status).toBe(403);
  }, 60_000);
});
