// GraphQL types of the leaderboard, built from the zod document of @podium/leaderboard (ADR 0033):
// the shape, nullability, Int/Float/ID, type names and descriptions are stated there once
// (zod-graphql.ts maps them). Each export is the GraphQL class (a value, for `@Field(() => X)`
// and `@Resolver(() => X)`) and the document's type (for resolvers' signatures).
import type { Type } from '@nestjs/common';
import { Field, Float, ObjectType, registerEnumType } from '@nestjs/graphql';
import * as lb from '@podium/leaderboard';
import { PairedTest, PValueCorrection } from '@podium/leaderboard';
import { graphqlTypes } from './zod-graphql';

export { PairedTest, PValueCorrection };
registerEnumType(PairedTest, {
  name: 'PairedTest',
  description: 'A paired test on instance scores that a board may choose, from the ranking library’s registry (see the `significanceTests` query)',
});

registerEnumType(PValueCorrection, { name: 'PValueCorrection', description: 'Holm (family-wise), Benjamini–Hochberg (FDR), or none' });

/** `Leaderboard.pairs` is a field resolver with paging arguments (LeaderboardResolver), whose items are `SystemPair`s. */
const TYPES = graphqlTypes([lb.leaderboardSchema, lb.systemPairSchema], { enums: [PairedTest, PValueCorrection], omit: new Set(['Leaderboard.pairs']) });

function typeOf<T>(schema: lb.LeaderboardObjectSchema): Type<T> {
  const t = TYPES.get(schema);
  if (!t) throw new Error(`no GraphQL type was made for the leaderboard schema ${String(schema.meta()?.id)}`);
  return t as Type<T>;
}

export const Interval = typeOf<lb.Interval>(lb.intervalSchema);
export type Interval = lb.Interval;
export const LeaderboardSystem = typeOf<lb.LeaderboardSystem>(lb.leaderboardSystemSchema);
export type LeaderboardSystem = lb.LeaderboardSystem;
export const SystemPair = typeOf<lb.SystemPair>(lb.systemPairSchema);
export type SystemPair = lb.SystemPair;
export const Leaderboard = typeOf<lb.Leaderboard>(lb.leaderboardSchema);
export type Leaderboard = lb.Leaderboard;

/**
 * The deprecated fixed-field form of a pair's tests: one nullable Float per registered test, named
 * by `pairTestField` (bootstrap_corpus → bootstrapCorpus), built from the ranking library's
 * registry here and filled from `testResults` by SystemPairResolver, so no test is listed by hand.
 */
@ObjectType({ description: 'Unadjusted p-values of every registered test by field (deprecated: read SystemPair.testResults)' })
export class PairTests {
  [field: string]: number | null;
}
for (const t of lb.PAIRED_TESTS) Field(() => Float, { nullable: true, description: t.label })(PairTests.prototype, lb.pairTestField(t.key));
