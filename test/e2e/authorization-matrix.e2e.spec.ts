/**
 * The authorization matrix (issues #10 and #20) against the real api process and a real
 * PostgreSQL, derived from the classification in apps/api/src/common/authorization.ts:
 * - every cell role × resource × phase state of visibility.ts, each probed through every path
 *   that reaches the resource (GraphQL fields, nested fields, REST downloads), with two more
 *   callers than the matrix names: an organiser of another task (must be treated as another
 *   team) and an administrator (as the task's organiser);
 * - every classified operation whose rule has a static part (signed in, organiser, task
 *   creator, administrator), probed with an operation generated from the introspected schema
 *   for every caller: refused by the classification exactly when the rule says;
 * - every `teamInsider` field for every caller;
 * and a check that every classified entry has a probe here or is of a kind whose probe is
 * generated. Every cell is printed.
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
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { GRAPHQL_RULES, REST_CLASSIFICATION, meets, staticRequirement, type AccessRule, type StaticRequirement } from '../../apps/api/src/common/authorization';
import type { AuthUser } from '@podium/domain';
import { databaseUrl, graphqlClient, startApiProcess, type RunningApp } from './support/processes';
import { createAdminToken, createOrganiserToken } from '../support/database';
import { TASK_ORGANISER_PROBES } from './support/organiser-probes';

const root = path.resolve(__dirname, '..', '..');

const SECRET = 'REFERENCE-SECRET';
const INSTANCES = [
  { id: 'i1', source: 'Das Haus ist klein.', references: [`${SECRET} the house is small`] },
  { id: 'i2', source: 'Es regnet.', references: [`${SECRET} it is raining`], context: { previous: 'Der Himmel ist grau.' } },
];

type Probe = { path: string; allowed: boolean; leak?: string };

/** The callers probed: the matrix's four roles, an organiser of another task and an administrator. */
type Caller = ViewerRole | 'otherOrganiser' | 'admin';
const CALLERS: readonly Caller[] = [...VIEWER_ROLES, 'otherOrganiser', 'admin'];
/** Whom the matrix says each caller is for this task's data. */
const AS_ROLE: Record<Caller, ViewerRole> = { anonymous: 'anonymous', otherTeam: 'otherTeam', ownTeam: 'ownTeam', organiser: 'organiser', otherOrganiser: 'otherTeam', admin: 'organiser' };
/** Each caller as the static part of a rule sees them (the roles and tasks the setup gives them). */
const AS_USER: Record<Caller, AuthUser | null> = {
  anonymous: null,
  otherTeam: { id: '', name: 'b', role: 'PARTICIPANT', teamIds: ['b'], organisedTaskIds: [] },
  ownTeam: { id: '', name: 'a', role: 'PARTICIPANT', teamIds: ['a'], organisedTaskIds: [] },
  organiser: { id: '', name: 'o', role: 'ORGANISER', teamIds: [], organisedTaskIds: ['matrix'] },
  otherOrganiser: { id: '', name: 'o2', role: 'ORGANISER', teamIds: [], organisedTaskIds: ['other'] },
  admin: { id: '', name: 'ad', role: 'ADMIN', teamIds: [], organisedTaskIds: [] },
};

/** Where the phase-resource probes below reach each classified `phaseResource:*` field and route. */
const PROBED_PHASE_RESOURCES: Record<string, Resource> = {
  'Query.submissions': 'outputs',
  'Query.submission': 'outputs',
  'Query.instanceScores': 'instanceScores',
  'Query.leaderboard': 'leaderboard',
  'Query.reportCard': 'leaderboard',
  'Phase.testInput': 'testInput',
  'InstanceScore.references': 'references',
  'InstanceScore.score': 'perInstanceScores',
  'Phase.scoredCount': 'leaderboard',
  'TestSet.checksum': 'phaseFacts',
  // The matrix's phases have no split (null for everyone): its cells are in replay-issue20-oracles.
  'Phase.split': 'phaseFacts',
  'TestSetCommitment.salt': 'commitmentSalt',
  'Submission.crossTeamDuplicateOf': 'crossTeamDuplicates',
  'GET /api/phases/:id/test-input.:format': 'testInput',
  'GET /api/phases/:id/test-set.jsonl': 'references',
  'GET /api/submissions/:id/scores.csv': 'perInstanceScores',
  'GET /api/submissions/:id/scores.jsonl': 'perInstanceScores',
  'GET /api/phases/:id/scores.csv': 'downloads',
  'GET /api/phases/:id/scores.jsonl': 'downloads',
  'GET /api/phases/:id/outputs.jsonl': 'bulkOutputs',
  'GET /api/phases/:id/leaderboard.json': 'leaderboard',
  'GET /api/phases/:id/leaderboard.csv': 'leaderboard',
  'GET /api/phases/:id/leaderboard-pairs.json': 'leaderboard',
  'GET /api/phases/:id/leaderboard-pairs.jsonl': 'leaderboard',
};

/** Rules whose probes this file generates (static part) or holds (data part), by rule. */
function probeKind(rule: AccessRule, coordinate: string): string | undefined {
  if (rule === 'public' || rule === 'parent') return 'no restriction of its own (reached through a probed parent)';
  if (rule.startsWith('phaseResource:')) return PROBED_PHASE_RESOURCES[coordinate] === rule.slice('phaseResource:'.length) ? 'matrix cells' : undefined;
  if (rule === 'teamInsider') return 'teamInsider cells';
  if (/^[A-Z]+ \//.test(coordinate)) return 'generated static cells (REST, anonymous)';
  const root = coordinate.startsWith('Query.') || coordinate.startsWith('Mutation.');
  if (!root) return undefined;
  if (rule === 'taskOrganiser') return coordinate.replace(/^Mutation\.|^Query\./, '') in TASK_ORGANISER_PROBES ? 'generated static cells + cross-task probe' : undefined;
  return 'generated static cells';
}

/** An operation selecting one root field, its arguments as declared variables (never sent: the classification answers first). */
function generatedOperation(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): string {
  const vars = field.args.map((a, k) => `$v${k}: ${String(a.type)}`);
  const args = field.args.map((a, k) => `${a.name}: $v${k}`);
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  return `${kind} Generated${vars.length ? `(${vars.join(', ')})` : ''} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
}

describe('authorization matrix: role × resource × phase state, through every path', () => {
  let db: Db;
  let api: RunningApp;
  let baseUrl: string;
  const suffix = randomUUID().slice(0, 8);
  const tokens: Partial<Record<Caller, string>> = {};
  let teamA = '';
  const phases = {} as Record<PhaseState, { id: string; own: string; other: string; copy: string }>;
  const lines: string[] = [];

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 2 });
    tokens.organiser = await createOrganiserToken(db, `org-${suffix}`, 'matrix');
    tokens.otherOrganiser = await createOrganiserToken(db, `org2-${suffix}`, 'matrix');
    tokens.admin = await createAdminToken(db, `admin-${suffix}`, 'matrix');
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
    const admin = graphqlClient(baseUrl, tokens.admin);
    const slug = `matrix-${suffix}`;
    await org.request(`mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
      i: { slug, title: 'Matrix', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'bleu', name: 'bleu' }] },
    });
    // The other organiser runs a task of their own; they must see this one as any other team does.
    await graphqlClient(baseUrl, tokens.otherOrganiser).request(`mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
      i: { slug: `matrix-other-${suffix}`, title: 'Other', kind: 'mt', sourceLang: 'de', targetLang: 'en' },
    });
    const teams: Record<'a' | 'b', { id: string; token: string }> = {} as never;
    for (const t of ['a', 'b'] as const) {
      const { createTeam } = await admin.request<{ createTeam: { id: string } }>(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, {
        n: `team-${t}-${suffix}`,
        m: [`member-${t}-${suffix}`],
      });
      const { issueToken } = await admin.request<{ issueToken: string }>(`mutation($u: String!) { issueToken(userName: $u, label: "matrix") }`, { u: `member-${t}-${suffix}` });
      teams[t] = { id: createTeam.id, token: issueToken };
    }
    tokens.ownTeam = teams.a.token;
    tokens.otherTeam = teams.b.token;
    teamA = teams.a.id;

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
  async function probes(resource: Resource, state: PhaseState, role: Caller): Promise<Probe[]> {
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
        const canonical = await rest(`/api/phases/${phaseId}/test-set.jsonl`, token);
        const seen = JSON.stringify(direct.data ?? {}).includes(SECRET);
        return [
          { path: 'GraphQL instanceScores.rows.references', allowed: seen },
          { path: 'REST test-set.jsonl (the committed canonical form)', allowed: canonical.status === 200 && canonical.text.includes(SECRET) },
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
        const g = await gql.raw<{ phase: { testSet: { checksum: string | null; instanceCount: number } } }>(
          `query($p: ID!) { phase(id: $p) { testSet { checksum instanceCount } } }`,
          { p: phaseId },
        );
        return [
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
        // the method-keyed fields (ADR 0021) follow the leaderboard's rule
        const board = await gql.raw(
          `query($p: ID!) { leaderboard(phaseId: $p) { methods { key label description intervalKind direction clusters test testLabel } systems { system values { method value interval { low high } rank rankInterval { best worst } cluster } } } }`,
          { p: phaseId },
        );
        const json = await rest(`/api/phases/${phaseId}/leaderboard.json`, token);
        const csv = await rest(`/api/phases/${phaseId}/leaderboard.csv`, token);
        // the board's pairs apart from it (ADR 0038): a tile and the streamed download
        const tile = await rest(`/api/phases/${phaseId}/leaderboard-pairs.json?row=0&col=0`, token);
        const pairs = await rest(`/api/phases/${phaseId}/leaderboard-pairs.jsonl`, token);
        const visible = await gql.raw<{ phase: { scoresVisible: boolean } }>(`query($p: ID!) { phase(id: $p) { scoresVisible } }`, { p: phaseId });
        const card = await gql.raw(`query($p: ID!) { reportCard(phaseId: $p) { phaseId } }`, { p: phaseId });
        const count = await gql.raw<{ phase: { scoredCount: number | null } }>(`query($p: ID!) { phase(id: $p) { scoredCount } }`, { p: phaseId });
        return [
          { path: 'GraphQL phase.scoredCount', allowed: ok(count) && count.data?.phase.scoredCount === 2 },
          { path: 'GraphQL leaderboard', allowed: ok(board) },
          { path: 'GraphQL reportCard', allowed: ok(card) },
          { path: 'REST leaderboard.json', allowed: json.status === 200 },
          { path: 'REST leaderboard.csv', allowed: csv.status === 200 },
          { path: 'REST leaderboard-pairs.json', allowed: tile.status === 200 },
          { path: 'REST leaderboard-pairs.jsonl', allowed: pairs.status === 200 },
          { path: 'GraphQL phase.scoresVisible', allowed: visible.data?.phase.scoresVisible === true },
        ];
      }
      case 'bulkOutputs': {
        const jsonl = await rest(`/api/phases/${phaseId}/outputs.jsonl`, token);
        const manifest = jsonl.status === 200 ? (JSON.parse(jsonl.text.split('\n')[0] ?? '{}') as { type?: string; submissions?: { system: string }[] }) : null;
        return [
          {
            path: 'REST phases/:id/outputs.jsonl',
            allowed: manifest?.type === 'manifest' && !!manifest.submissions?.some((x) => x.system === 'sys-b') && jsonl.text.includes('"type":"output"'),
            leak: jsonl.text.includes(SECRET) ? 'outputs.jsonl' : undefined,
          },
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

  const cells = RESOURCES.flatMap((resource) => PHASE_STATES.flatMap((state) => CALLERS.map((role) => [resource, state, role] as const)));

  // The callers of one (resource, state) are probed concurrently (they only read); 144 cells
  // of 2–6 paths each take minutes on a loaded 2-core machine.
  it(`answers all ${cells.length} cells as the matrix says, through every path`, async () => {
    const wrong: string[] = [];
    const answers = new Map<string, Probe[]>();
    for (const resource of RESOURCES) {
      for (const state of PHASE_STATES) {
        const results = await Promise.all(CALLERS.map((role) => probes(resource, state, role)));
        for (const [k, role] of CALLERS.entries()) answers.set(`${resource} ${state} ${role}`, results[k] ?? []);
      }
    }
    for (const [resource, state, role] of cells) {
      const expected = AUTHORIZATION_MATRIX[resource][state].includes(AS_ROLE[role]);
      const results = answers.get(`${resource} ${state} ${role}`) ?? [];
      const bad = results.filter((p) => p.allowed !== expected || p.leak);
      const line = `${resource.padEnd(15)} ${state.padEnd(19)} ${role.padEnd(14)} ${expected ? 'ALLOW' : 'deny '} ${bad.length === 0 ? 'ok' : 'FAIL'} (${results.length} paths)`;
      lines.push(line);
      for (const p of bad) wrong.push(`${resource} × ${state} × ${role}: ${p.path} ${p.leak ? `leaks references (${p.leak})` : p.allowed ? 'allowed' : 'denied'}, expected ${expected ? 'allowed' : 'denied'}`);
    }
    expect(wrong).toEqual([]);
  }, 600_000);

  it("lists a team's submissions across phases (teamSubmissions) to its members, its task's organisers and administrators only, in every state", async () => {
    const teamId = (await db.submission.findUniqueOrThrow({ where: { id: phases['open-hidden'].own } })).teamId;
    const seen: string[] = [];
    for (const role of CALLERS) {
      const r = await graphqlClient(baseUrl, tokens[role]).raw<{ teamSubmissions: { id: string }[] }>(`query($t: ID!) { teamSubmissions(teamId: $t) { id } }`, { t: teamId });
      if (!r.errors?.length) seen.push(role);
      // Two per phase: its own and the copy of team B's outputs.
      if (role === 'ownTeam') expect(r.data?.teamSubmissions).toHaveLength(2 * PHASE_STATES.length);
    }
    expect(seen).toEqual(['ownTeam', 'organiser', 'admin']);
  });

  it('serves the ranking registries (significanceTests, rankingMethods, pValueCorrections) alike to every caller, anonymous included (public)', async () => {
    const query = '{ significanceTests { key value label corpus statistic } rankingMethods { key label clusterTest } pValueCorrections { key value label } }';
    const answers = [];
    for (const caller of CALLERS) {
      const r = await graphqlClient(baseUrl, tokens[caller]).raw<{ significanceTests: { key: string; value: string | null }[]; rankingMethods: { key: string }[]; pValueCorrections: { value: string }[] }>(query);
      expect(r.errors).toBeUndefined();
      lines.push(`${'Query.significanceTests'.padEnd(34)} ${'public'.padEnd(19)} ${caller.padEnd(14)} pass  ok`);
      lines.push(`${'Query.rankingMethods'.padEnd(34)} ${'public'.padEnd(19)} ${caller.padEnd(14)} pass  ok`);
      lines.push(`${'Query.pValueCorrections'.padEnd(34)} ${'public'.padEnd(19)} ${caller.padEnd(14)} pass  ok`);
      answers.push(r.data);
    }
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]?.significanceTests.map((t) => t.key)).toContain('ttest');
    expect(answers[0]?.rankingMethods.map((m) => m.key)).toContain('mean');
    // libs/ranking/src/correction.ts `CORRECTIONS`, in its order (the default first).
    expect(answers[0]?.pValueCorrections.map((c) => c.value)).toEqual(['HOLM', 'BH', 'NONE']);
  });

  it('has a probe for every classified entry, or it is of a kind whose probe is generated', () => {
    const missing = [...GRAPHQL_RULES.entries(), ...Object.entries(REST_CLASSIFICATION)].filter(([coordinate, rule]) => probeKind(rule, coordinate) === undefined).map(([c, r]) => `${c} (${r})`);
    expect(missing).toEqual([]);
  });

  it('refuses every operation with a static rule to exactly the callers the classification excludes (generated from the introspected schema)', async () => {
    const { data } = await graphqlClient(baseUrl).raw<IntrospectionQuery>(getIntrospectionQuery());
    const schema: GraphQLSchema = buildClientSchema(data as IntrospectionQuery);
    const wrong: string[] = [];
    let count = 0;
    for (const kind of ['query', 'mutation'] as const) {
      const root = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
      for (const field of Object.values(root?.getFields() ?? {})) {
        const coordinate = `${kind === 'query' ? 'Query' : 'Mutation'}.${field.name}`;
        const rule = GRAPHQL_RULES.get(coordinate);
        if (rule === undefined) {
          wrong.push(`${coordinate} is not classified`);
          continue;
        }
        const need: StaticRequirement = staticRequirement(rule);
        if (need === 'none') continue;
        const operation = generatedOperation(kind, field);
        // Required arguments are declared but never sent: a caller the classification lets
        // through gets a variable error instead, never a side effect.
        const required = field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined);
        for (const caller of CALLERS) {
          if (!required && meets(need, AS_USER[caller])) continue; // would run for real; its data checks are probed elsewhere
          const r = await graphqlClient(baseUrl, tokens[caller]).raw(operation);
          const refused = r.errors?.some((e) => e.extensions?.['field'] === coordinate) ?? false;
          const expected = !meets(need, AS_USER[caller]);
          count++;
          lines.push(`${coordinate.padEnd(34)} ${rule.padEnd(19)} ${caller.padEnd(14)} ${expected ? 'deny ' : 'pass '} ${refused === expected ? 'ok' : 'FAIL'} (generated)`);
          if (refused !== expected) wrong.push(`${coordinate} (${rule}) for ${caller}: ${refused ? 'refused' : 'let through'}, expected ${expected ? 'refused' : 'let through'}: ${JSON.stringify(r.errors)}`);
        }
      }
    }
    for (const [route, rule] of Object.entries(REST_CLASSIFICATION)) {
      if (staticRequirement(rule) === 'none') continue;
      const [method, pattern] = route.split(' ') as [string, string];
      const res = await fetch(`${baseUrl}${pattern.replace(/:[A-Za-z]+/g, phases['open-hidden'].id)}`, { method });
      count++;
      lines.push(`${route.padEnd(34)} ${rule.padEnd(19)} ${'anonymous'.padEnd(14)} deny  ${res.status === 401 ? 'ok' : 'FAIL'} (generated, REST)`);
      if (res.status !== 401) wrong.push(`${route} (${rule}) for anonymous: HTTP ${res.status}, expected 401`);
    }
    expect(wrong).toEqual([]);
    expect(count).toBeGreaterThan(100);
  });

  it("shows a team's member names and invite code only to its members, its tasks' organisers and administrators (teamInsider)", async () => {
    const wrong: string[] = [];
    const insiders: Caller[] = ['ownTeam', 'organiser', 'admin'];
    for (const caller of CALLERS) {
      const r = await graphqlClient(baseUrl, tokens[caller]).raw<{ team: { members: { name: string }[] | null; inviteCode: string | null } }>(
        `query($t: ID!) { team(id: $t) { name members { name } inviteCode } }`,
        { t: teamA },
      );
      const seesMembers = !!r.data?.team.members?.some((m) => m.name === `member-a-${suffix}`);
      const seesCode = r.data?.team.inviteCode != null;
      for (const [field, seen] of [['TeamDetails.members', seesMembers], ['TeamDetails.inviteCode', seesCode]] as const) {
        const expected = insiders.includes(caller);
        lines.push(`${field.padEnd(34)} ${'teamInsider'.padEnd(19)} ${caller.padEnd(14)} ${expected ? 'ALLOW' : 'deny '} ${seen === expected ? 'ok' : 'FAIL'}`);
        if (seen !== expected) wrong.push(`${field} for ${caller}: ${seen ? 'shown' : 'hidden'}`);
      }
    }
    expect(wrong).toEqual([]);
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
