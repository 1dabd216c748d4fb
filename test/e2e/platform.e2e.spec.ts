/**
 * The first whole path a user walks (issue #2), across real processes and a real PostgreSQL:
 * an organiser creates a task through GraphQL and uploads a test set, a team submits three
 * systems over the REST upload (one bad upload is rejected and stores nothing), the worker
 * scores every instance, the leaderboard ranks the systems, and the CSV download has every row.
 */
import { currentBoard } from '../support/leaderboards';
import { randomUUID } from 'node:crypto';
import { createDb, decodeValues, type Db } from '@podium/db';
import { fitBradleyTerry, countWins } from '@podium/ranking';
import { databaseUrl, graphqlClient, startApiProcess, startApp, waitFor, type RunningApp } from './support/processes';
import { createAdminToken } from '../support/database';
import { defined } from '../support/defined';

const REFS = [
  'the committee approved the new budget on monday',
  'five soldiers were wounded in the attack',
  'the museum opens at nine in the morning',
  'she bought three apples and two pears',
  'the river flooded the village last spring',
  'our team won the final match yesterday',
];
// good ≈ references, mid = partly right, bad = mostly wrong; each of mid and bad wins one
// instance against the system above it, so every Bradley–Terry strength is finite.
const GOOD = REFS.map((r, i) => (i === 2 ? 'the museum opens at nine in the evening' : i === 5 ? 'our team won' : r));
const MID = ['the committee approved a budget', 'soldiers were wounded', 'the museum opens in the morning', 'she bought apples', 'the river flooded the village', 'our team won the final match yesterday'];
const BAD = ['a budget', 'soldiers', 'museum at night', 'pears', 'the river flooded the village last spring', 'the match'];

function jsonl(lines: string[]): string {
  return lines.map((output, i) => JSON.stringify({ id: `seg-${i + 1}`, output })).join('\n') + '\n';
}

describe('platform: task → submissions → scores → leaderboard → download', () => {
  let db: Db;
  let api: RunningApp;
  let worker: RunningApp;
  let baseUrl: string;
  let organiserToken: string;
  const suffix = randomUUID().slice(0, 8);

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 2 });
    organiserToken = await createAdminToken(db, `organiser-${suffix}`, 'e2e');
    ({ api, baseUrl } = await startApiProcess(url));
    // Started once the api has created pg-boss's schema (creating it together can deadlock).
    worker = startApp('apps/worker/src/main.ts', { DATABASE_URL: url, PODIUM_WORKER_NAME: `e2e-${suffix}` });
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.$disconnect();
  });

  it('runs the whole path for an organiser and a team', async () => {
    const organiser = graphqlClient(baseUrl, organiserToken);
    const slug = `e2e-${suffix}`;
    await organiser.request(
      `mutation($input: CreateTaskInput!) { createTask(input: $input) { slug } }`,
      { input: { slug, title: 'E2E task', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'chrf', name: 'chrf' }, { key: 'bleu', name: 'bleu' }, { key: 'nli', name: 'nli' }] } },
    );
    const { createPhase: phase } = await organiser.request<{ createPhase: { id: string } }>(
      `mutation($input: CreatePhaseInput!) { createPhase(input: $input) { id } }`,
      { input: { taskSlug: slug, name: 'test', opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: 10, totalLimit: 10 } },
    );
    await organiser.request(
      `mutation($phaseId: ID!, $instances: [TestInstanceInput!]!) { uploadTestSet(phaseId: $phaseId, name: "ts", instances: $instances) { id } }`,
      { phaseId: phase.id, instances: REFS.map((r, i) => ({ id: `seg-${i + 1}`, source: `quelle ${i + 1}`, references: [r] })) },
    );
    const { createTeam: team } = await organiser.request<{ createTeam: { id: string } }>(
      `mutation($name: String!, $members: [String!]!) { createTeam(name: $name, members: $members) { id } }`,
      { name: `team-${suffix}`, members: [`alice-${suffix}`] },
    );
    const { issueToken: teamToken } = await organiser.request<{ issueToken: string }>(
      `mutation($u: String!) { issueToken(userName: $u, label: "e2e") }`,
      { u: `alice-${suffix}` },
    );

    const upload = async (systemName: string, content: string) => {
      const form = new FormData();
      form.set('teamId', team.id);
      form.set('systemName', systemName);
      form.set('file', new Blob([content], { type: 'application/jsonl' }), `${systemName}.jsonl`);
      const res = await fetch(`${baseUrl}/api/phases/${phase.id}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${teamToken}` }, body: form });
      return { status: res.status, body: (await res.json()) as { submissionId?: string; error?: string; line?: number; instanceId?: string } };
    };

    // A bad upload: seg-4 appears twice, seg-5 never. Rejected, naming the line; nothing stored.
    const badLines = jsonl(GOOD).split('\n');
    badLines[4] = JSON.stringify({ id: 'seg-4', output: 'again' });
    const bad = await upload('broken', badLines.join('\n'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/seg-4/);
    expect(bad.body.line).toBe(5);
    expect(await db.submission.count({ where: { phase: { id: phase.id } } })).toBe(0);

    const ids: Record<string, string> = {};
    for (const [name, lines] of [['good', GOOD], ['mid', MID], ['bad', BAD]] as const) {
      const r = await upload(name, jsonl([...lines]));
      expect(r.status).toBe(201);
      ids[name] = defined(r.body.submissionId);
    }

    await waitFor('three scored submissions', async () => {
      const { submissions } = await organiser.request<{ submissions: { status: string; error: string | null }[] }>(
        `query($p: ID!) { submissions(phaseId: $p) { status error } }`,
        { p: phase.id },
      );
      const failed = submissions.find((s) => s.status === 'FAILED');
      if (failed) throw new Error(`a submission failed: ${failed.error}`);
      return submissions.length === 3 && submissions.every((s) => s.status === 'SCORED');
    }, 120_000);

    // The worker stores the board after the last score; poll until it is current.
    const { leaderboard } = await currentBoard(async () => (await organiser.request<{
      leaderboard: { updating: boolean; metric: string; systems: { system: string; mean: number; median: number; bt: number; corpusScore: number; rank: { mean: number; median: number; bt: number } }[] };
    }>(
      // The three systems are one team's: every submission, not the default one row per team (ADR 0013).
      `query($p: ID!) { leaderboard(phaseId: $p, allSubmissions: true) { updating metric systems { system mean median bt corpusScore rank { mean median bt } } } }`,
      { p: phase.id },
    )).leaderboard).then((leaderboard) => ({ leaderboard }));
    expect(leaderboard.metric).toBe('chrf');
    const byMean = [...leaderboard.systems].sort((a, b) => a.rank.mean - b.rank.mean).map((s) => s.system);
    expect(byMean).toEqual(['good', 'mid', 'bad']);
    const byBt = [...leaderboard.systems].sort((a, b) => a.rank.bt - b.rank.bt).map((s) => s.system);
    expect(byBt).toEqual(['good', 'mid', 'bad']);

    // The leaderboard's BT strengths equal a fit on the stored per-instance scores.
    const stored = await db.scoreColumn.findMany({ where: { submissionId: { in: Object.values(ids) }, metric: 'chrf' } });
    const systems = ['good', 'mid', 'bad'];
    const scores = systems.map((s) => [...decodeValues(defined(stored.find((c) => c.submissionId === ids[s]), `the chrF column of ${s}`).values)]);
    const fit = fitBradleyTerry(countWins({ systems, instances: REFS.map((_, i) => `seg-${i + 1}`), scores }));
    expect(fit.strengths.every(Number.isFinite)).toBe(true);
    for (const [k, s] of systems.entries()) {
      expect(defined(leaderboard.systems.find((x) => x.system === s)).bt).toBeCloseTo(defined(fit.strengths[k]), 6);
    }
    expect(leaderboard.systems.reduce((a, s) => a + (s.bt ?? 0), 0)).toBeCloseTo(1, 6);

    // NLI through the whole pipeline (the generated test model: entailment rises with word
    // overlap), and the combined metric offered at read time.
    const nliBoard = await currentBoard(async () => (await organiser.request<{
      leaderboard: { updating: boolean; metric: string; metricSignature: string; availableMetrics: string[]; systems: { system: string; mean: number; rank: { mean: number } }[] };
    }>(`query($p: ID!) { leaderboard(phaseId: $p, metric: "nli", allSubmissions: true) { updating metric metricSignature availableMetrics systems { system mean rank { mean } } } }`, { p: phase.id })).leaderboard);
    expect(nliBoard.metricSignature).toMatch(/^nli\|model:test-nli-tiny@[0-9a-f]{12}\|formula:e\|dir:<->/);
    expect([...nliBoard.systems].sort((a, b) => a.rank.mean - b.rank.mean).map((s) => s.system)).toEqual(['good', 'mid', 'bad']);
    expect(nliBoard.availableMetrics).toEqual(expect.arrayContaining(['chrf', 'bleu', 'nli', 'combined:nli+chrf']));

    // Long-form CSV: header + 3 systems × 6 instances × 3 metrics rows.
    const csv = await fetch(`${baseUrl}/api/phases/${phase.id}/scores.csv`, { headers: { authorization: `Bearer ${organiserToken}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const rows = (await csv.text()).trim().split(/\r?\n/);
    expect(rows[0]).toBe('submission_id,system,team,primary,baseline,status,instance_id,metric,signature,score');
    expect(rows).toHaveLength(1 + 3 * 6 * 3);
    const goodChrf = rows.filter((r) => r.includes(',good,') && r.includes(',chrf,'));
    expect(goodChrf).toHaveLength(6);
    expect(goodChrf[0]).toMatch(/^[0-9a-f-]{36},good,team-[0-9a-f]{8},(true|false),false,scored,seg-1,chrf,chrf\|nrefs:1\|case:mixed\|eff:yes\|nc:6\|nw:0\|space:no\|version:[^,]+,100(\.0+)?$/);
  });
});
