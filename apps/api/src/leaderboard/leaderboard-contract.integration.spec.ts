// The contract the web relies on (issue #11): the pages read a board from the stored document
// (GET /api/phases/:id/leaderboard.json) and type it by the LeaderboardFields fragment in
// apps/web/src/graphql/leaderboard.graphql. Against a real PostgreSQL, GraphQL's answer for that
// fragment's selection must equal leaderboard.json cut to the same selection, for the same phase
// and arguments: a field the fragment asks for and the document lacks fails here. Also the
// bounded `Leaderboard.pairs(system:, first:, offset:)` and `pairCount` of API clients.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { createDb, type Db } from '@podium/db';
import { Kind, parse, print, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { LeaderboardJobRunner } from '../../../../test/support/leaderboards';
import { createApp } from '../app';
import { MAX_PAIRS_PAGE } from './leaderboard.resolver';
import { defined } from '../../../../test/support/defined';
import { DATABASE_URL, createAdminToken, describeWithDatabase } from '../../../../test/support/database';
import { createOpenPhase, type OpenPhase } from '../../../../test/support/phases';

jest.setTimeout(120_000);

const suite = describeWithDatabase('leaderboard-contract.integration.spec');

const QUEUE_SCHEMA = 'pgboss_lb_contract_it';
const ROOT = path.resolve(__dirname, '../../../..');
const suffix = randomBytes(4).toString('hex');
const CHRF_SIG = 'chrF2|version:test';

/** The web's fragment, as the web's codegen reads it. */
const FRAGMENT = (() => {
  const doc = parse(readFileSync(path.join(ROOT, 'apps/web/src/graphql/leaderboard.graphql'), 'utf8'));
  return defined(
    doc.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === 'LeaderboardFields'),
    'fragment LeaderboardFields in leaderboard.graphql',
  );
})();

const MISSING = '<absent from leaderboard.json>';

/** `value` cut to a GraphQL selection set: what GraphQL would answer if it served this JSON. */
function select(value: unknown, selection: SelectionSetNode): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (Array.isArray(value)) return value.map((v) => select(v, selection));
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const s of selection.selections) {
    if (s.kind !== Kind.FIELD) throw new Error(`the fragment uses a ${s.kind}; cut to it by hand here`);
    const key = s.alias?.value ?? s.name.value;
    if (!(s.name.value in obj)) out[key] = MISSING;
    else out[key] = s.selectionSet ? select(obj[s.name.value], s.selectionSet) : obj[s.name.value];
  }
  return out;
}

interface GqlResult {
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper over arbitrary queries
  errors?: { message: string; extensions: Record<string, unknown> }[];
}

/** Views of the board the web asks for: GraphQL variables and the same view as leaderboard.json's query string. */
const VIEWS: { name: string; variables: Record<string, unknown>; query: string }[] = [
  { name: 'the default view (as the web asks for it)', variables: { c: 'HOLM' }, query: '?correction=holm' },
  { name: 'no arguments', variables: {}, query: '' },
  { name: 'metric, test and correction chosen', variables: { m: 'chrf', t: 'WILCOXON', c: 'BH' }, query: '?metric=chrf&test=wilcoxon&correction=bh' },
  { name: 'every submission', variables: { c: 'HOLM', all: true }, query: '?correction=holm&submissions=all' },
];

suite('leaderboard.json and GraphQL answer the web’s fragment alike', () => {
  let app: INestApplication;
  let db: Db;
  let runner: LeaderboardJobRunner;
  let organiserToken: string;
  let phase: OpenPhase;
  let phaseId: string;
  const ids: Record<string, string> = {};

  const gql = async (query: string, variables: Record<string, unknown> = {}, token: string = organiserToken): Promise<GqlResult> =>
    (await request(app.getHttpServer()).post('/graphql').set('Authorization', `Bearer ${token}`).send({ query, variables })).body as GqlResult;
  const ok = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await gql(query, variables);
    if (r.errors) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
    return defined(r.data, 'GraphQL data');
  };
  const FRAGMENT_QUERY = `query($p: ID!, $m: String, $t: PairedTest, $c: PValueCorrection, $all: Boolean) {
    leaderboard(phaseId: $p, metric: $m, test: $t, correction: $c, allSubmissions: $all) { ...LeaderboardFields }
  }
  ${print(FRAGMENT)}`;
  const viaGraphql = async (variables: Record<string, unknown>) => (await ok(FRAGMENT_QUERY, { p: phaseId, ...variables }))['leaderboard'];
  const viaJson = async (query: string, token: string = organiserToken) => {
    const res = await request(app.getHttpServer()).get(`/api/phases/${phaseId}/leaderboard.json${query}`).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    return JSON.parse(res.text) as unknown;
  };
  const pairsQuery = (args: string) => `query($p: ID!) { leaderboard(phaseId: $p) { pairCount pairs${args} { aSubmissionId bSubmissionId a b wins } } }`;

  const score = (id: string, chrf: number[]) => phase.score(id, { metric: 'chrf', signature: CHRF_SIG, values: chrf });

  beforeAll(async () => {
    // The board is the organisers' until the phase closes (public flag off below): every read here sends the token, as the web does.
    const config = loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent', PODIUM_RATE_LIMIT: '100000', PODIUM_GRAPHQL_MAX_COST: '1000000' });
    // The cost limit (graphql-armor) multiplies a literal `first` into the cost and would refuse
    // `first: 10001` before the resolver: lifted so that the resolver's own check is what is tested.
    app = await createApp(config, { logger: false, queueSchema: QUEUE_SCHEMA, root: ROOT });
    db = createDb(defined(DATABASE_URL, 'DATABASE_URL'));
    runner = new LeaderboardJobRunner(defined(DATABASE_URL, 'DATABASE_URL'), QUEUE_SCHEMA);
    organiserToken = await createAdminToken(db, `lbcorg-${suffix}`, 'leaderboard contract test');
    phase = await createOpenPhase(ok, db, {
      slug: `lbc-${suffix}`,
      title: 'Contract',
      metrics: [{ key: 'chrf', name: 'chrf' }],
      instances: [
        { id: 'x1', source: 'Das Haus.', references: ['The house.'] },
        { id: 'x2', source: 'Es regnet.', references: ['It rains.'] },
        { id: 'x3', source: 'Guten Morgen.', references: ['Good morning.'] },
        { id: 'x4', source: 'Danke.', references: ['Thanks.'] },
      ],
      leaderboardBeforeClose: false,
      team: { name: `lbcteam-${suffix}`, member: `lbcalice-${suffix}` },
    });
    phaseId = phase.phaseId;
    ids['A'] = await phase.submit('A');
    ids['B'] = await phase.submit('B');
    ids['C'] = await phase.submit('C');
    await score(ids['A'], [60, 40, 20, 50]);
    await score(ids['B'], [50, 30, 80, 40]);
    await score(ids['C'], [90, 85, 70, 95]);
  });

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await db?.$disconnect();
  });

  it('answers the same empty board marked updating before a worker stored one', async () => {
    const json = await viaJson('?correction=holm');
    const graphql = await viaGraphql({ c: 'HOLM' });
    expect(graphql).toMatchObject({ updating: true, systems: [], pairs: [] });
    expect(select(json, FRAGMENT.selectionSet)).toEqual(graphql);
  });

  it.each(VIEWS)('answers the same stored board for $name', async ({ variables, query }) => {
    const graphql = await runner.settled(() => viaGraphql(variables));
    expect(graphql.updating).toBe(false);
    expect(graphql.systems).toHaveLength(3);
    expect(graphql.pairs).toHaveLength(3);
    const json = await viaJson(query);
    expect(select(json, FRAGMENT.selectionSet)).toEqual(graphql);
    // Enums by their GraphQL names, dates as ISO strings: what the web's generated type says.
    expect(typeof graphql.computedAt).toBe('string');
    expect(graphql.test).toMatch(/^[A-Z_]+$/);
  });

  const errorCases: [string, () => string, 'FORBIDDEN' | 'NOT_FOUND'][] = [
    ['a phase nobody may see yet (anonymous, before the phase closes)', () => phaseId, 'FORBIDDEN'],
    ['a phase that does not exist', () => '00000000-0000-4000-8000-000000000000', 'NOT_FOUND'],
  ];
  it.each(errorCases)('says what GraphQL says, as { error, code } with its HTTP status, for %s', async (_what, id, code) => {
    const g = (await request(app.getHttpServer()).post('/graphql').send({ query: `query($p: ID!) { leaderboard(phaseId: $p) { phaseId } }`, variables: { p: id() } })).body as GqlResult;
    const rest = await request(app.getHttpServer()).get(`/api/phases/${id()}/leaderboard.json?correction=holm`);
    expect(rest.status).toBe(code === 'NOT_FOUND' ? 404 : 403);
    expect(rest.body).toMatchObject({ error: defined(g.errors?.[0], 'a GraphQL error').message, code });
    expect(g.errors?.[0]?.extensions['code']).toBe(code);
  });

  it('fails the comparison when the fragment asks for a field the document lacks', () => {
    const withExtra = parse(`fragment F on Leaderboard { phaseId notInTheDocument systems { system alsoMissing } }`).definitions[0] as FragmentDefinitionNode;
    expect(select({ phaseId: 'p', systems: [{ system: 'A' }] }, withExtra.selectionSet)).toEqual({ phaseId: 'p', notInTheDocument: MISSING, systems: [{ system: 'A', alsoMissing: MISSING }] });
  });

  describe('Leaderboard.pairs(system:, first:, offset:) and pairCount', () => {
    let all: { aSubmissionId: string; bSubmissionId: string }[];

    beforeAll(async () => {
      const b = (await ok(pairsQuery(''), { p: phaseId }))['leaderboard'];
      expect(b.pairCount).toBe(3);
      all = b.pairs;
      expect(all).toHaveLength(3);
    });

    it('answers only the pairs involving `system`, and counts them', async () => {
      const b = (await ok(`query($p: ID!, $s: ID!) { leaderboard(phaseId: $p) { pairCount(system: $s) pairs(system: $s) { aSubmissionId bSubmissionId } } }`, { p: phaseId, s: ids['C'] }))['leaderboard'];
      expect(b.pairCount).toBe(2);
      expect(b.pairs).toEqual(all.filter((p) => p.aSubmissionId === ids['C'] || p.bSubmissionId === ids['C']).map((p) => ({ aSubmissionId: p.aSubmissionId, bSubmissionId: p.bSubmissionId })));
      expect(b.pairs.every((p: { aSubmissionId: string; bSubmissionId: string }) => p.aSubmissionId === ids['C'] || p.bSubmissionId === ids['C'])).toBe(true);
    });

    it('pages with first and offset in the stored order', async () => {
      expect((await ok(pairsQuery('(first: 2)'), { p: phaseId }))['leaderboard'].pairs).toEqual(all.slice(0, 2));
      expect((await ok(pairsQuery('(first: 2, offset: 1)'), { p: phaseId }))['leaderboard'].pairs).toEqual(all.slice(1, 3));
      expect((await ok(pairsQuery('(offset: 2)'), { p: phaseId }))['leaderboard'].pairs).toEqual(all.slice(2));
      expect((await ok(pairsQuery('(first: 0)'), { p: phaseId }))['leaderboard'].pairs).toEqual([]);
      expect((await ok(pairsQuery('(offset: 10)'), { p: phaseId }))['leaderboard'].pairs).toEqual([]);
    });

    it.each([
      [`(first: ${MAX_PAIRS_PAGE + 1})`, 'first', `first must be an integer between 0 and ${MAX_PAIRS_PAGE}`],
      ['(first: -1)', 'first', `first must be an integer between 0 and ${MAX_PAIRS_PAGE}`],
      ['(offset: -1)', 'offset', 'offset must be a non-negative integer'],
    ])('refuses pairs%s with INVALID_INPUT naming %s', async (args, field, message) => {
      const r = await gql(pairsQuery(args), { p: phaseId });
      expect(r.errors?.[0]).toMatchObject({ message, extensions: { code: 'INVALID_INPUT', field } });
    });
  });
});
