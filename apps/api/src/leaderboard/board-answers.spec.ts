import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, getNamedType, isObjectType, Kind, parse, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import { BOARD_COORDINATES, cacheableRoots } from './board-answers';

// The api's emitted schema (a spec fails when it drifts from the code).
const schema = buildSchema(readFileSync(path.resolve(__dirname, '../../schema.graphql'), 'utf8'));

function roots(query: string): string[] | null {
  const document = parse(query);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error('no operation');
  return cacheableRoots(schema, document, operation)?.map((f) => f.alias?.value ?? f.name.value) ?? null;
}

describe('which GraphQL answers of boards may be cached', () => {
  it('knows every field reachable from Leaderboard as the stored board’s own, except the live links of a row', () => {
    const seen = new Set<string>();
    const notBoard: string[] = [];
    const walk = (type: GraphQLObjectType): void => {
      if (seen.has(type.name)) return;
      seen.add(type.name);
      for (const field of Object.values(type.getFields())) {
        if (!BOARD_COORDINATES.has(`${type.name}.${field.name}`)) notBoard.push(`${type.name}.${field.name}`);
        const next = getNamedType(field.type);
        if (isObjectType(next)) walk(next);
      }
    };
    walk(schema.getType('Leaderboard') as GraphQLObjectType);
    // A field resolver added to a board type lands here: list it in BOARD_COORDINATES only if its value is the board's alone.
    expect(notBoard.sort()).toEqual(['LeaderboardSystem.codeUrl', 'LeaderboardSystem.paperUrl']);
    expect(seen.has('LeaderboardSystem') && seen.has('SystemPair') && seen.has('PairTests')).toBe(true);
  });

  it('caches queries of board fields only, through fragments and aliases', () => {
    expect(roots(`query($p: ID!) { leaderboard(phaseId: $p) { stamp systems { system mean rank { mean } } } }`)).toEqual(['leaderboard']);
    expect(roots(`query($p: ID!) { a: leaderboard(phaseId: $p) { ...B } b: leaderboard(phaseId: $p, test: WILCOXON) { __typename pairs(first: 2) { p tests { bootstrap } } } } fragment B on Leaderboard { systems { ... on LeaderboardSystem { n } } }`)).toEqual(['a', 'b']);
  });

  it('does not cache a live field, another root field, a mutation or a directive on the root', () => {
    expect(roots(`query($p: ID!) { leaderboard(phaseId: $p) { systems { system paperUrl } } }`)).toBeNull();
    expect(roots(`query($p: ID!) { leaderboard(phaseId: $p) { ...L } } fragment L on Leaderboard { systems { codeUrl } }`)).toBeNull();
    expect(roots(`query($p: ID!) { leaderboard(phaseId: $p) { stamp } me { id } }`)).toBeNull();
    expect(roots(`query($p: ID!, $s: Boolean!) { leaderboard(phaseId: $p) @skip(if: $s) { stamp } }`)).toBeNull();
    expect(roots(`mutation($p: ID!) { setPhaseSignificance(phaseId: $p, seed: 1) { seed } }`)).toBeNull();
    expect(roots(`{ __typename }`)).toBeNull();
  });
});
