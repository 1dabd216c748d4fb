// Deny by default, enumerated from the running API: every field of the schema the api serves
// (introspection) and every route of its Express router must be classified in
// `authorization.ts`, and nothing classified may be stale. A field or route added tomorrow
// fails here until it is classified (and the matrix e2e then probes it by its rule).
import type { INestApplication } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { loadApiConfig } from '@podium/config';
import { getNamedType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { createApp } from '../app';
import { DATABASE_URL, describeWithDatabase } from '../../../../test/support/database';
import { GRAPHQL_RULES, REST_CLASSIFICATION, staticRequirement } from './authorization';

jest.setTimeout(60_000);

const suite = describeWithDatabase('authorization-classification.integration.spec');

/** Every `Type.field` of the object types of a schema (introspection's own types excluded). */
export function schemaCoordinates(schema: GraphQLSchema): string[] {
  return Object.values(schema.getTypeMap())
    .filter((t): t is GraphQLObjectType => isObjectType(t) && !t.name.startsWith('__'))
    .flatMap((t) => Object.keys(t.getFields()).map((f) => `${t.name}.${f}`))
    .sort();
}

/** The fields an anonymous caller can select: from the root fields whose rule needs nothing, through fields whose rule needs nothing. */
export function anonymousReachable(schema: GraphQLSchema): string[] {
  const reached = new Set<string>();
  const types = new Set<string>();
  const visit = (type: GraphQLObjectType): void => {
    if (types.has(type.name)) return;
    types.add(type.name);
    for (const [name, field] of Object.entries(type.getFields())) {
      const coordinate = `${type.name}.${name}`;
      const rule = GRAPHQL_RULES.get(coordinate);
      if (rule === undefined || staticRequirement(rule) !== 'none') continue;
      reached.add(coordinate);
      const next = getNamedType(field.type);
      if (isObjectType(next)) visit(next);
    }
  };
  for (const root of [schema.getQueryType(), schema.getMutationType()]) if (root) visit(root);
  return [...reached].sort();
}

/** `METHOD path` of every route the Express router holds (Nest's controllers and Apollo's endpoint). */
function routeTable(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } };
  return express.router.stack
    .flatMap((layer) => (layer.route ? Object.keys(layer.route.methods).filter((m) => m !== '_all').map((m) => `${m.toUpperCase()} ${layer.route?.path ?? ''}`) : []))
    .sort();
}

// What an anonymous caller may start from. A change here is a change of who sees what: review it.
const ANONYMOUS_ROOTS = [
  'Mutation.login',
  'Mutation.logout',
  'Mutation.register',
  'Mutation.startSessionWithToken',
  'Query.instanceScores',
  'Query.leaderboard',
  'Query.me',
  'Query.metrics',
  'Query.pValueCorrections',
  'Query.phase',
  'Query.rankingMethods',
  'Query.reportCard',
  'Query.robustness',
  'Query.significanceTests',
  'Query.submission',
  'Query.submissions',
  'Query.task',
  'Query.taskKinds',
  'Query.tasks',
  'Query.team',
  'Query.teams',
];

// The types whose fields an anonymous caller can reach (some fields only in some phase states,
// decided by visibility.ts: Leaderboard, Submission, InstanceScore, TestInputPage).
const ANONYMOUS_TYPES = [
  'BootstrapSettings', 'BtComponent', 'ClusterTest', 'CorpusInterval', 'CorpusScore', 'CorrectionMethod', 'CorrelationTradeoffPoint', 'DuplicateOf',
  'HumanCorrelation', 'InstanceScore', 'InstanceScorePage', 'Interval', 'Leaderboard', 'LeaderboardSystem', 'MethodDescriptor',
  'MethodValue', 'MetricConfigType',
  'MetricDefinition', 'MetricReportCard', 'Mutation', 'PairSignificance', 'PairTestResult', 'PairTests', 'Phase', 'PhaseSplit', 'PhenomenonAccuracy', 'Query',
  'RankInterval', 'RankingMethod', 'ReportCard', 'RobustnessAccuracy', 'RobustnessReport', 'ScoreHistoryEntry', 'ScoredOn', 'SignificanceTest', 'Submission', 'SystemClusters',
  'SystemPair', 'SystemRankIntervals', 'SystemRanks', 'Task', 'TaskKindDefinition', 'Team', 'TeamDetails', 'TeamMember', 'TestInputPage',
  'TestInputRow', 'TestSet', 'TestSetCommitment', 'TradeoffPoint', 'TrueSkillRating', 'User',
];

suite('the authorization classification covers the whole API', () => {
  let app: INestApplication;
  let schema: GraphQLSchema;

  beforeAll(async () => {
    app = await createApp(loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent' }), { logger: false, queueSchema: 'pgboss_classification_it' });
    schema = app.get(GraphQLSchemaHost).schema;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('classifies every GraphQL operation and object field the schema has, and nothing else', () => {
    const coordinates = schemaCoordinates(schema);
    const classified = [...GRAPHQL_RULES.keys()].sort();
    expect(coordinates.filter((c) => !GRAPHQL_RULES.has(c))).toEqual([]);
    expect(classified.filter((c) => !coordinates.includes(c))).toEqual([]);
    const operations = coordinates.filter((c) => c.startsWith('Query.') || c.startsWith('Mutation.'));
    console.log(`authorization classification: ${coordinates.length} GraphQL fields (${operations.length} operations, ${coordinates.length - operations.length} object fields)`);
  });

  it('classifies every REST route of the router, and nothing else', () => {
    const routes = routeTable(app).filter((r) => !/^(GET|POST) \/graphql$/.test(r));
    expect(routes.filter((r) => !(r in REST_CLASSIFICATION))).toEqual([]);
    expect(Object.keys(REST_CLASSIFICATION).filter((r) => !routes.includes(r))).toEqual([]);
    console.log(`authorization classification: ${routes.length} REST routes (+ POST/GET /graphql, per field)`);
  });

  it('lists every operation and type an anonymous caller can reach', () => {
    const reachable = anonymousReachable(schema);
    const roots = reachable.filter((c) => c.startsWith('Query.') || c.startsWith('Mutation.'));
    expect(roots).toEqual(ANONYMOUS_ROOTS);
    expect([...new Set(reachable.map((c) => c.split('.')[0]))].sort()).toEqual([...ANONYMOUS_TYPES].sort());
    // Member names and invite codes are not among them without a check of their own.
    expect(GRAPHQL_RULES.get('TeamDetails.members')).toBe('teamInsider');
    console.log(`authorization classification: ${reachable.length} GraphQL fields reachable anonymously`);
  });
});
