// The leaderboard's shape is stated once, by the zod schema of @podium/leaderboard. The GraphQL
// types are built from it (zod-graphql.ts, ADR 0033); the emitted apps/api/schema.graphql and the
// web's fragment (apps/web/src/graphql/leaderboard.graphql, the type of the leaderboard.json the
// web reads, a selection GraphQL documents must spell out) are checked against it here, field by
// field and nullability included, so neither can drift from the document.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, getNamedType, isNonNullType, isObjectType, Kind, parse, type GraphQLObjectType, type SelectionSetNode } from 'graphql';
import { leaderboardSchema } from '@podium/leaderboard';
import { z } from 'zod';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const schema = buildSchema(readFileSync(path.join(root, 'apps/api/schema.graphql'), 'utf8'));
/**
 * Fields GraphQL adds on top of the document: paging resolvers over `pairs`, a row's paper and
 * code links, resolved from its submission per request (a team edits them after scoring), and a
 * pair's deprecated fixed-field `tests`, made from its `testResults` by the registry.
 */
const GRAPHQL_ONLY = new Set(['Leaderboard.pairCount', 'LeaderboardSystem.paperUrl', 'LeaderboardSystem.codeUrl', 'SystemPair.tests']);

interface Unwrapped {
  object: z.ZodObject | null;
  nullable: boolean;
}
function unwrap(t: z.ZodType): Unwrapped {
  let nullable = false;
  let cur: z.ZodType = t;
  for (;;) {
    if (cur instanceof z.ZodNullable) {
      nullable = true;
      cur = cur.unwrap() as z.ZodType;
    } else if (cur instanceof z.ZodArray) cur = cur.element as z.ZodType;
    else break;
  }
  return { object: cur instanceof z.ZodObject ? cur : null, nullable };
}

/** Differences between a GraphQL object type and a zod object, recursively ("Type.field: why"). */
function drift(type: GraphQLObjectType, doc: z.ZodObject, seen = new Set<string>()): string[] {
  if (seen.has(type.name)) return [];
  seen.add(type.name);
  const out: string[] = [];
  const fields = type.getFields();
  const shape = doc.shape as Record<string, z.ZodType>;
  for (const name of Object.keys(fields)) if (!(name in shape) && !GRAPHQL_ONLY.has(`${type.name}.${name}`)) out.push(`${type.name}.${name}: not in the document`);
  for (const [name, field] of Object.entries(shape)) {
    const gql = fields[name];
    if (!gql) {
      out.push(`${type.name}.${name}: not in GraphQL`);
      continue;
    }
    const { object, nullable } = unwrap(field);
    if (nullable === isNonNullType(gql.type)) out.push(`${type.name}.${name}: nullable ${nullable} in the document, ${!isNonNullType(gql.type)} in GraphQL`);
    const named = getNamedType(gql.type);
    if (object && isObjectType(named)) out.push(...drift(named, object, seen));
    else if (object || isObjectType(named)) out.push(`${type.name}.${name}: object in one, scalar in the other`);
  }
  return out;
}

/** Selected paths of a selection set that the document lacks, and document fields it does not select. */
function fragmentDrift(set: SelectionSetNode, doc: z.ZodObject, at: string): string[] {
  const out: string[] = [];
  const shape = doc.shape as Record<string, z.ZodType>;
  const selected = new Set<string>();
  for (const sel of set.selections) {
    if (sel.kind !== Kind.FIELD) continue;
    const name = sel.name.value;
    selected.add(name);
    const field = shape[name];
    if (!field) {
      out.push(`${at}.${name}: selected but not in the document`);
      continue;
    }
    const { object } = unwrap(field);
    if (object && sel.selectionSet) out.push(...fragmentDrift(sel.selectionSet, object, `${at}.${name}`));
  }
  // the web reads the whole document: every method-keyed part must be selected completely
  if (at.endsWith('.methods') || at.endsWith('.values')) for (const name of Object.keys(shape)) if (!selected.has(name)) out.push(`${at}.${name}: in the document but not selected`);
  return out;
}

describe('the leaderboard document is the one statement of its shape', () => {
  it('GraphQL Leaderboard has exactly the zod schema’s fields, types and nullability (recursively)', () => {
    const type = schema.getType('Leaderboard');
    if (!isObjectType(type)) throw new Error('Leaderboard is not an object type');
    expect(drift(type, leaderboardSchema)).toEqual([]);
  });

  it('the check sees drift: a field missing from GraphQL is named', () => {
    const type = schema.getType('Leaderboard');
    if (!isObjectType(type)) throw new Error('Leaderboard is not an object type');
    expect(drift(type, leaderboardSchema.extend({ extra: z.string() }))).toEqual(['Leaderboard.extra: not in GraphQL']);
  });

  it('the web fragment selects only document fields, and all of every method descriptor and method value', () => {
    const doc = parse(readFileSync(path.join(root, 'apps/web/src/graphql/leaderboard.graphql'), 'utf8'));
    const fragment = doc.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === 'LeaderboardFields');
    if (fragment?.kind !== Kind.FRAGMENT_DEFINITION) throw new Error('no LeaderboardFields fragment');
    expect(fragmentDrift(fragment.selectionSet, leaderboardSchema, 'Leaderboard')).toEqual([]);
  });
});
