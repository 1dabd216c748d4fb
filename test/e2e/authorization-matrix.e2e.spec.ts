/**
 * The authorization matrix (issue #10) against the real api process and a real PostgreSQL:
 * every cell role × resource × phase state, each probed through every path that reaches the
 * resource (GraphQL fields, nested fields, REST downloads). All paths of a cell must agree, and
 * the answer must be the one apps/api/src/common/visibility.ts declares. Every cell is printed.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDb, SubmissionRepository, type Db } from '@podium/db';
import {
  AUTHORIZATION_MATRIX,
  PHASE_STATES,
  RESOURCES,
  VIEWER_ROLES,
  type PhaseState,
  type Resource,
  type ViewerRole,
} from '../../apps/api/src/common/visibility';
import { databaseUrl, graphqlClient, startApiProcess, type RunningApp } from './support/processes';
import { createOrganiserToken } from '../support/database';

const root = path.resolve(__dirname, '..', '..');

const SECRET = 'REFERENCE-SECRET';
const INSTANCES = [
  { id: 'i1', source: 'Das Haus ist klein.', references: [`${SECRET} the house is small`] },
  { id: 'i2', source: 'Es regnet.', references: [`${SECRET} it is raining`], context: { previous: 'Der Himmel ist grau.' } },
];

type Probe = { path: string; allowed: boolean; leak?: string };

describe('authorization matrix: role × resource × phase state, through every path', () => {
  let db: Db;
  let api: RunningApp;
  let baseUrl: string;
  const suffix = randomUUID().slice(0, 8);
  const tokens: Partial<Record<ViewerRole, string>> = {};
  const phases = {} as Record<PhaseState, { id: string; own: string; other: string; copy: string }>;
  const lines: string[] = [];

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 2 });
    tokens.organiser = await createOrganiserToken(db, `org-${suffix}`, 'matrix');
    // A queue of its own: it writes its scores itself, so no other suite's worker may take its jobs
    // (a worker holding a lease makes that write fail).
    ({ api, baseUrl } = await startApiProcess(url, 60_000, { PODIUM_QUEUE_SCHEMA: 'authorization_matrix' }));
    await setUpPhases();
  });

  afterAll(async () => {
    if (lines.length > 0) {
      const table = `Authorization matrix (${lines.length} cells)\n${lines.join('\n')}\n`;
      process.stdout.write(`\n${table}`);
      mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
      writeFileSync(path.join(root, 'test-artifacts', 'authorization-matrix.txt'), table);
    }
    await api?.stop();
    await db?.$disconnect();
  });

  /** One phase per state, each with a submission of team A (own) and team B (other); the cases only read them. */
  async function setUpPhases(): Promise<void> {
    const org = graphqlClient(baseUrl, tokens.organiser);
    const slug = `matrix-${suffix}`;
    await org.request(`mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
      i: { slug, title: 'Matrix', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'bleu', name: 'bleu' }] },
    });
    const teams: Record<'a' | 'b', { id: string; token: string }> = {} as never;
    for (const t of ['a', 'b'] as const) {
      const { createTeam } = await org.request<{ createTeam: { id: string } }>(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, {
        n: `team-${t}-${suffix}`,
        m: [`member-${t}-${suffix}`],
      });
      const { issueToken } = await org.request<{ issueToken: string }>(`mutation($u: String!) { issueToken(userName: $u, label: "matrix") }`, { u: `member-${t}-${suffix}` });
      teams[t] = { id: createTeam.id, token: issueToken };
    }
    tokens.ownTeam = teams.a.token;
    tokens.otherTeam = teams.b.token;

    for (const state of PHASE_STATES) {
      const { createPhase } = await org.request<{ createPhase: { id: string } }>(`mutation($i: CreatePhaseInput!) { createPhase(input: $i) { id } }`, {
        i: { taskSlug: slug, name: state, opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: 5, totalLimit: 5, leaderboardBeforeClose: state === 'open-public' },
      });
      const phaseId = createPhase.id;
      await org.request(`mutation($p: ID!, $n: String!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: $n, instances: $i) { id } }`, { p: phaseId, n: `ts-${state}`, i: INSTANCES });
      const ids: Record<'a' | 'b', string> = { a: '', b: '' };
      for (const t of ['a', 'b'] as const) {
        // Plain lines in test-input order, over the REST upload.
        const form = new FormData();
        form.set('teamId', teams[t].id);
        form.set('systemName', `sys-${t}`);
        form.set('file', new Blob([`output ${t} one\noutput ${t} two\n`], { type: 'text/plain' }), 'out.txt');
        const res = await fetch(`${baseUrl}/api/phases/${phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${teams[t].token}` }, body: form });
        const body = (await res.json()) as { submissionId: string };
        expect(res.status).toBe(201);
        ids[t] = body.submissionId;
      }
      // Team A uploads team B's outputs again: a duplicate across teams (issue #20).
      const copyForm = new FormData();
      copyForm.set('teamId', teams.a.id);
      copyForm.set('systemName', 'sys-a-copy');
      copyForm.set('file', new Blob(['output b one\noutput b two\n'], { type: 'text/plain' }), 'copy.txt');
      const copyRes = await fetch(`${baseUrl}/api/phases/${phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${teams.a.token}` }, body: copyForm });
      expect(copyRes.status).toBe(201);
      const copy = ((await copyRes.json()) as { submissionId: string }).submissionId;
      // Scores as the worker would store them (no worker in this test: visibility, not scoring).
      const instances = await db.instance.findMany({ where: { testSet: { phases: { some: { id: phaseId } } } }, orderBy: { position: 'asc' } });
      for (const [k, id] of [ids.a, ids.b].entries()) {
        await new SubmissionRepository(db).saveScores(
          id,
          [{ metric: 'bleu', signature: 'bleu|test', values: instances.map((_, p) => 10 * (k + 1) + p) }],
          [{ metric: 'bleu', signature: 'bleu|test', value: 10 * (k + 1) }],
        );
      }
      if (state === 'closed-unpublished' || state === 'published') await org.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId });
      if (state === 'published') await org.request(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });
      const { phase } = await org.request<{ phase: { state: string } }>(`query($p: ID!) { phase(id: $p) { state } }`, { p: phaseId });
      expect(phase.state).toBe(state);
      phases[state] = { id: phaseId, own: ids.a, other: ids.b, copy };
    }
  }

  async function rest(path: string, token: string | undefined): Promise<{ status: number; text: string }> {
    const res = await fetch(`${baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, text: await res.text() };
  }

  /** Every path to a resource of a phase, as seen by one role; `leak` names data that must never appear. */
  async function probes(resource: Resource, state: PhaseState, role: ViewerRole): Promise<Probe[]> {
    const token = tokens[role];
    const gql = graphqlClient(baseUrl, token);
    const { id: phaseId, own, copy } = phases[state];
    const ok = (r: { errors?: unknown[] }) => !r.errors?.length;
    const scoresQuery = `query($s: ID!) { instanceScores(submissionId: $s, metric: "bleu") { rows { source references output score } } }`;
    switch (resource) {
      case 'references': {
        const direct = await gql.raw<{ instanceScores: { rows: { references: string[] | null }[] } }>(scoresQuery, { s: own });
        const nested = await gql.raw<{ submissions: { id: string }[] }>(`query($p: ID!) { submissions(phaseId: $p) { id } }`, { p: phaseId });
        const input = await rest(`/api/phases/${phaseId}/test-input.jsonl`, token);
        const testInputGql = await gql.raw(`query($p: ID!) { phase(id: $p) { referencesVisible testInput { rows { id source } } } }`, { p: phaseId });
        const viaSubmission = await gql.raw(`query($s: ID!) { submission(id: $s) { phase { testInput { rows { id source } } task { slug } } } }`, { s: own });
        const seen = JSON.stringify(direct.data ?? {}).includes(SECRET);
        return [
          { path: 'GraphQL instanceScores.rows.references', allowed: seen },
          { path: 'GraphQL phase.referencesVisible', allowed: (testInputGql.data as { phase?: { referencesVisible?: boolean } })?.phase?.referencesVisible === true },
          // Paths that must never carry references, whatever the cell says.
          { path: 'GraphQL submissions(phaseId)', allowed: seen, leak: JSON.stringify(nested).includes(SECRET) ? 'submissions' : undefined },
          { path: 'REST test-input.jsonl', allowed: seen, leak: input.text.includes(SECRET) ? 'test-input.jsonl' : undefined },
          { path: 'GraphQL phase.testInput', allowed: seen, leak: JSON.stringify(testInputGql).includes(SECRET) ? 'phase.testInput' : undefined },
          { path: 'GraphQL submission.phase.testInput', allowed: seen, leak: JSON.stringify(viaSubmission).includes(SECRET) ? 'submission.phase.testInput' : undefined },
        ];
      }
      case 'testInput': {
        const out: Probe[] = [];
        for (const f of ['tsv', 'jsonl', 'txt']) {
          const r = await rest(`/api/phases/${phaseId}/test-input.${f}`, token);
          const context = f === 'txt' || r.text.includes('Der Himmel ist grau.');
          out.push({ path: `REST test-input.${f}`, allowed: r.status === 200 && r.text.includes('Es regnet.') && context, leak: r.text.includes(SECRET) ? `test-input.${f}` : undefined });
        }
        const g = await gql.raw<{ phase: { testInput: { rows: { id: string; source: string }[] } } }>(`query($p: ID!) { phase(id: $p) { testInput { total rows { id source position context } } } }`, { p: phaseId });
        out.push({ path: 'GraphQL phase.testInput', allowed: ok(g) && g.data?.phase.testInput.rows[1]?.source === 'Es regnet.' && JSON.stringify(g.data.phase.testInput.rows[1]).includes('Der Himmel') });
        return out;
      }
      case 'outputs': {
        const one = await gql.raw(`query($s: ID!) { submission(id: $s) { id systemName } }`, { s: own });
        const list = await gql.raw<{ submissions: { id: string }[] }>(`query($p: ID!) { submissions(phaseId: $p) { id } }`, { p: phaseId });
        const viaTeam = await gql.raw<{ submissions: { id: string }[] }>(`query($p: ID!, $t: ID!) { submissions(phaseId: $p, teamId: $t) { id } }`, {
          p: phaseId,
          t: (await db.submission.findUniqueOrThrow({ where: { id: own } })).teamId,
        });
        const rows = await gql.raw(scoresQuery, { s: own });
        return [
          { path: 'GraphQL submission(id)', allowed: ok(one) },
          { path: 'GraphQL submissions(phaseId)', allowed: ok(list) && !!list.data?.submissions.some((s) => s.id === own) },
          { path: 'GraphQL submissions(phaseId, teamId)', allowed: ok(viaTeam) && !!viaTeam.data?.submissions.some((s) => s.id === own) },
          { path: 'GraphQL instanceScores.rows.output', allowed: JSON.stringify(rows.data ?? {}).includes('output a two') },
        ];
      }
      case 'instanceScores': {
        const corpus = await gql.raw<{ submission: { corpusScores: { value: number }[] } }>(`query($s: ID!) { submission(id: $s) { corpusScores { metric value } } }`, { s: own });
        const nested = await gql.raw<{ submissions: { id: string; corpusScores: unknown[] }[] }>(`query($p: ID!) { submissions(phaseId: $p) { id corpusScores { value } } }`, { p: phaseId });
        const history = await gql.raw(`query($s: ID!) { submission(id: $s) { scoreHistory { metric signature value } } }`, { s: own });
        return [
          { path: 'GraphQL submission.scoreHistory', allowed: ok(history) },
          { path: 'GraphQL submission.corpusScores', allowed: ok(corpus) && (corpus.data?.submission.corpusScores.length ?? 0) > 0 },
          { path: 'GraphQL submissions(phaseId).corpusScores', allowed: ok(nested) && !!nested.data?.submissions.some((s) => s.id === own && s.corpusScores.length > 0) },
        ];
      }
      case 'perInstanceScores': {
        const rows = await gql.raw<{ instanceScores: { rows: { score: number | null }[] } }>(scoresQuery, { s: own });
        const sorted = await gql.raw(`query($s: ID!) { instanceScores(submissionId: $s, metric: "bleu", order: DESC) { rows { score } } }`, { s: own });
        const csv = await rest(`/api/submissions/${own}/scores.csv`, token);
        const jsonl = await rest(`/api/submissions/${own}/scores.jsonl`, token);
        return [
          { path: 'GraphQL instanceScores.rows.score', allowed: ok(rows) && !!rows.data?.instanceScores.rows.every((r) => r.score !== null) },
          { path: 'GraphQL instanceScores(order: desc)', allowed: ok(sorted) },
          { path: 'REST submissions/:id/scores.csv', allowed: csv.status === 200 && csv.text.includes('sys-a') },
          { path: 'REST submissions/:id/scores.jsonl', allowed: jsonl.status === 200 && jsonl.text.includes('sys-a') },
        ];
      }
      case 'phaseFacts': {
        const g = await gql.raw<{ phase: { scoredCount: number | null; testSet: { checksum: string | null; instanceCount: number } } }>(
          `query($p: ID!) { phase(id: $p) { scoredCount testSet { checksum instanceCount } } }`,
          { p: phaseId },
        );
        return [
          { path: 'GraphQL phase.scoredCount', allowed: ok(g) && g.data?.phase.scoredCount === 2 },
          { path: 'GraphQL phase.testSet.checksum', allowed: ok(g) && typeof g.data?.phase.testSet.checksum === 'string' },
        ];
      }
      case 'commitmentSalt': {
        const g = await gql.raw<{ phase: { commitment: { commitment: string; salt: string | null } } }>(`query($p: ID!) { phase(id: $p) { commitment { commitment salt } } }`, { p: phaseId });
        const json = await rest(`/api/phases/${phaseId}/commitment.json`, token);
        const body = JSON.parse(json.text) as { commitment?: string; salt?: string | null };
        return [
          { path: 'GraphQL phase.commitment.salt', allowed: ok(g) && typeof g.data?.phase.commitment.salt === 'string' },
          { path: 'REST commitment.json salt', allowed: json.status === 200 && typeof body.salt === 'string' },
        ];
      }
      case 'crossTeamDuplicates': {
        const g = await gql.raw<{ submission: { crossTeamDuplicateOf: { id: string } | null; duplicateOf: { id: string } | null } }>(
          `query($s: ID!) { submission(id: $s) { duplicateOf { id } crossTeamDuplicateOf { id systemName teamId } } }`,
          { s: copy },
        );
        const other = phases[state].other;
        return [
          {
            path: 'GraphQL submission.crossTeamDuplicateOf',
            allowed: ok(g) && g.data?.submission.crossTeamDuplicateOf?.id === other,
            leak: g.data?.submission.duplicateOf ? 'duplicateOf names another team' : undefined,
          },
        ];
      }
      case 'leaderboard': {
        const board = await gql.raw(`query($p: ID!) { leaderboard(phaseId: $p) { systems { system } } }`, { p: phaseId });
        const json = await rest(`/api/phases/${phaseId}/leaderboard.json`, token);
        const csv = await rest(`/api/phases/${phaseId}/leaderboard.csv`, token);
        const visible = await gql.raw<{ phase: { scoresVisible: boolean } }>(`query($p: ID!) { phase(id: $p) { scoresVisible } }`, { p: phaseId });
        return [
          { path: 'GraphQL leaderboard', allowed: ok(board) },
          { path: 'REST leaderboard.json', allowed: json.status === 200 },
          { path: 'REST leaderboard.csv', allowed: csv.status === 200 },
          { path: 'GraphQL phase.scoresVisible', allowed: visible.data?.phase.scoresVisible === true },
        ];
      }
      case 'downloads': {
        const csv = await rest(`/api/phases/${phaseId}/scores.csv`, token);
        const jsonl = await rest(`/api/phases/${phaseId}/scores.jsonl`, token);
        return [
          { path: 'REST phases/:id/scores.csv', allowed: csv.status === 200 && csv.text.includes('sys-b'), leak: csv.text.includes(SECRET) ? 'scores.csv' : undefined },
          { path: 'REST phases/:id/scores.jsonl', allowed: jsonl.status === 200 && jsonl.text.includes('sys-b'), leak: jsonl.text.includes(SECRET) ? 'scores.jsonl' : undefined },
        ];
      }
    }
  }

  const cells = RESOURCES.flatMap((resource) => PHASE_STATES.flatMap((state) => VIEWER_ROLES.map((role) => [resource, state, role] as const)));

  it(`answers all ${cells.length} cells as the matrix says, through every path`, async () => {
    const wrong: string[] = [];
    for (const [resource, state, role] of cells) {
      const expected = AUTHORIZATION_MATRIX[resource][state].includes(role);
      const results = await probes(resource, state, role);
      const bad = results.filter((p) => p.allowed !== expected || p.leak);
      const line = `${resource.padEnd(15)} ${state.padEnd(19)} ${role.padEnd(10)} ${expected ? 'ALLOW' : 'deny '} ${bad.length === 0 ? 'ok' : 'FAIL'} (${results.length} paths)`;
      lines.push(line);
      for (const p of bad) wrong.push(`${resource} × ${state} × ${role}: ${p.path} ${p.leak ? `leaks references (${p.leak})` : p.allowed ? 'allowed' : 'denied'}, expected ${expected ? 'allowed' : 'denied'}`);
    }
    expect(wrong).toEqual([]);
  });

  it("lists a team's submissions across phases (teamSubmissions) to its members and organisers only, in every state", async () => {
    const teamId = (await db.submission.findUniqueOrThrow({ where: { id: phases['open-hidden'].own } })).teamId;
    const seen: string[] = [];
    for (const role of VIEWER_ROLES) {
      const r = await graphqlClient(baseUrl, tokens[role]).raw<{ teamSubmissions: { id: string }[] }>(`query($t: ID!) { teamSubmissions(teamId: $t) { id } }`, { t: teamId });
      if (!r.errors?.length) seen.push(role);
      // Two per phase: its own and the copy of team B's outputs.
      if (role === 'ownTeam') expect(r.data?.teamSubmissions).toHaveLength(2 * PHASE_STATES.length);
    }
    expect(seen).toEqual(['ownTeam', 'organiser']);
  });

  it('never shows a test reference to a non-organiser before publishing (independent of the declared matrix)', () => {
    for (const state of PHASE_STATES.filter((s) => s !== 'published')) {
      for (const role of VIEWER_ROLES.filter((r) => r !== 'organiser')) expect(AUTHORIZATION_MATRIX.references[state]).not.toContain(role);
    }
    for (const state of ['open-hidden', 'closed-unpublished'] as const) {
      for (const resource of ['outputs', 'instanceScores', 'leaderboard', 'downloads'] as const) {
        expect(AUTHORIZATION_MATRIX[resource][state]).not.toContain('otherTeam');
        expect(AUTHORIZATION_MATRIX[resource][state]).not.toContain('anonymous');
      }
    }
  });
});
