/**
 * An embedding metric through the whole platform (issue #24), across real processes and a real
 * PostgreSQL: an organiser configures BERTScore (idf) beside chrF on a task through GraphQL; the
 * api reports it available with the committed test encoder and unavailable, with the fetch
 * command, with an encoder that is not present; a team uploads two systems; the worker scores
 * them with its text encoder; the leaderboard ranks them by BERTScore under its signature; the
 * CSV download carries every BERTScore instance score. The stored instance scores equal
 * `podium score --metric bertscore` on the same texts (the CLI, another host of the same plugin).
 */
import { currentBoard } from '../support/leaderboards';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, decodeValues, type Db } from '@podium/db';
import { databaseUrl, graphqlClient, repoRoot, startApiProcess, startApp, waitFor, type RunningApp } from './support/processes';
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
const GOOD = REFS;
const BAD = ['a budget', 'soldiers', 'museum at night', 'pears', 'the village', 'the match'];
const BERTSCORE_SIGNATURE = 'bertscore|model:test-encoder-tiny@c61e852f3935|L:2|idf:yes|rescale:no|nrefs:1|refs:best|version:podium-0.1.0';

const jsonl = (lines: readonly string[]) => lines.map((output, i) => JSON.stringify({ id: `seg-${i + 1}`, output })).join('\n') + '\n';

describe('an embedding metric (BERTScore) end to end: task → worker → leaderboard → download', () => {
  let db: Db;
  let api: RunningApp;
  let worker: RunningApp;
  let baseUrl: string;
  let organiserToken: string;
  const suffix = randomUUID().slice(0, 8);
  const env = { PODIUM_QUEUE_SCHEMA: 'pgboss_embedding_e2e' };

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 2 });
    organiserToken = await createAdminToken(db, `organiser-emb-${suffix}`, 'e2e');
    ({ api, baseUrl } = await startApiProcess(url, 120_000, env));
    // Started once the api has created pg-boss's schema (creating it together can deadlock).
    worker = startApp('apps/worker/src/main.ts', { DATABASE_URL: url, PODIUM_WORKER_NAME: `emb-${suffix}`, ...env });
  }, 150_000);

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.$disconnect();
  });

  it('scores, ranks and downloads BERTScore like any other metric', async () => {
    const organiser = graphqlClient(baseUrl, organiserToken);
    const slug = `emb-${suffix}`;
    await organiser.request(`mutation($input: CreateTaskInput!) { createTask(input: $input) { slug } }`, {
      input: {
        slug, title: 'BERTScore task', kind: 'mt', sourceLang: 'de', targetLang: 'en',
        metrics: [{ key: 'bertscore', name: 'bertscore', options: { idf: true } }, { key: 'chrf', name: 'chrf' }, { key: 'bs-large', name: 'bertscore', options: { model: 'roberta-large' } }],
      },
    });
    // A bad option is refused at task creation, naming the metric and the option.
    await expect(organiser.request(`mutation($input: CreateTaskInput!) { createTask(input: $input) { slug } }`, {
      input: { slug: `${slug}-bad`, title: 'x', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'b', name: 'bertscore', options: { idf: 'yes' } }] },
    })).rejects.toThrow(/option 'idf' of bertscore/);

    const { task } = await organiser.request<{ task: { metrics: { key: string; available: boolean; unavailableReason: string | null }[] } }>(
      `query($s: String!) { task(slug: $s) { metrics { key available unavailableReason } } }`,
      { s: slug },
    );
    expect(task.metrics).toEqual([
      { key: 'bertscore', available: true, unavailableReason: null },
      { key: 'chrf', available: true, unavailableReason: null },
      { key: 'bs-large', available: false, unavailableReason: "text encoder 'roberta-large' is not present in models/roberta-large; fetch it with: npm run -s podium -- models fetch roberta-large" },
    ]);
    // The unavailable one would fail every submission: drop it before the phase opens.
    await organiser.request(`mutation($s: String!, $m: [MetricConfigInput!]!) { updateTask(slug: $s, input: { metrics: $m }) { slug } }`, {
      s: slug,
      m: [{ key: 'bertscore', name: 'bertscore', options: { idf: true } }, { key: 'chrf', name: 'chrf' }],
    });

    const { createPhase: phase } = await organiser.request<{ createPhase: { id: string } }>(`mutation($input: CreatePhaseInput!) { createPhase(input: $input) { id } }`, {
      input: { taskSlug: slug, name: 'test', opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: 10, totalLimit: 10 },
    });
    await organiser.request(`mutation($phaseId: ID!, $instances: [TestInstanceInput!]!) { uploadTestSet(phaseId: $phaseId, name: "ts", instances: $instances) { id } }`, {
      phaseId: phase.id,
      instances: REFS.map((r, i) => ({ id: `seg-${i + 1}`, source: `quelle ${i + 1}`, references: [r] })),
    });
    const { createTeam: team } = await organiser.request<{ createTeam: { id: string } }>(`mutation($name: String!, $members: [String!]!) { createTeam(name: $name, members: $members) { id } }`, {
      name: `team-emb-${suffix}`,
      members: [`alice-emb-${suffix}`],
    });
    const { issueToken: teamToken } = await organiser.request<{ issueToken: string }>(`mutation($u: String!) { issueToken(userName: $u, label: "e2e") }`, { u: `alice-emb-${suffix}` });

    const ids: Record<string, string> = {};
    for (const [name, lines] of [['good', GOOD], ['bad', BAD]] as const) {
      const form = new FormData();
      form.set('teamId', team.id);
      form.set('systemName', name);
      form.set('file', new Blob([jsonl(lines)], { type: 'application/jsonl' }), `${name}.jsonl`);
      const res = await fetch(`${baseUrl}/api/phases/${phase.id}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${teamToken}` }, body: form });
      expect(res.status).toBe(201);
      ids[name] = defined(((await res.json()) as { submissionId?: string }).submissionId);
    }

    await waitFor('two scored submissions', async () => {
      const { submissions } = await organiser.request<{ submissions: { status: string; error: string | null }[] }>(`query($p: ID!) { submissions(phaseId: $p) { status error } }`, { p: phase.id });
      const failed = submissions.find((s) => s.status === 'FAILED');
      if (failed) throw new Error(`a submission failed: ${failed.error}`);
      return submissions.length === 2 && submissions.every((s) => s.status === 'SCORED');
    }, 180_000);

    // The board, ranked by BERTScore: the default metric is the task's first.
    const board = await currentBoard(async () => (await organiser.request<{
      leaderboard: { updating: boolean; metric: string; metricSignature: string; availableMetrics: string[]; systems: { system: string; mean: number; rank: { mean: number } }[] };
    }>(`query($p: ID!) { leaderboard(phaseId: $p, allSubmissions: true) { updating metric metricSignature availableMetrics systems { system mean rank { mean } } } }`, { p: phase.id })).leaderboard);
    expect(board.metric).toBe('bertscore');
    expect(board.metricSignature).toBe(BERTSCORE_SIGNATURE);
    expect(board.availableMetrics).toEqual(expect.arrayContaining(['bertscore', 'chrf']));
    expect([...board.systems].sort((a, b) => a.rank.mean - b.rank.mean).map((s) => s.system)).toEqual(['good', 'bad']);
    // A hypothesis equal to its reference: every token's best match is itself (cosine 1), F1 = 1.
    expect(defined(board.systems.find((s) => s.system === 'good')).mean).toBeCloseTo(1, 6);

    // The stored instance scores equal the CLI's on the same texts (same plugin, another host).
    const dir = mkdtempSync(path.join(tmpdir(), 'podium-emb-e2e-'));
    writeFileSync(path.join(dir, 'bad.txt'), BAD.join('\n') + '\n');
    writeFileSync(path.join(dir, 'ref.txt'), REFS.join('\n') + '\n');
    const cli = spawnSync(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'score', '--metric', 'bertscore', '--model', 'test-encoder-tiny', '--idf', '--hyp', path.join(dir, 'bad.txt'), '--ref', path.join(dir, 'ref.txt')], {
      cwd: repoRoot, encoding: 'utf8', timeout: 120_000,
    });
    expect(cli.status).toBe(0);
    const expected = JSON.parse(cli.stdout) as { instances: number[]; signature: string };
    expect(expected.signature).toBe(BERTSCORE_SIGNATURE);
    const column = defined(await db.scoreColumn.findFirst({ where: { submissionId: ids['bad'], metric: 'bertscore' } }), 'the BERTScore column of bad');
    expect(column.signature).toBe(BERTSCORE_SIGNATURE);
    [...decodeValues(column.values)].forEach((x, i) => expect(x).toBeCloseTo(defined(expected.instances[i]), 6));

    // Long-form CSV: 2 systems × 6 instances × 2 metrics rows.
    const csv = await fetch(`${baseUrl}/api/phases/${phase.id}/scores.csv`, { headers: { authorization: `Bearer ${organiserToken}` } });
    expect(csv.status).toBe(200);
    const rows = (await csv.text()).trim().split(/\r?\n/);
    expect(rows).toHaveLength(1 + 2 * 6 * 2);
    const goodBs = rows.filter((r) => r.includes(',good,') && r.includes(',bertscore,'));
    expect(goodBs).toHaveLength(6);
    expect(goodBs[0]).toContain(`,seg-1,bertscore,${BERTSCORE_SIGNATURE},`);
  });
});
