import { Field, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { CORRECTIONS, PAIRED_TESTS, PairedTest, PValueCorrection, registeredMethods } from '@podium/leaderboard';

@ObjectType('SignificanceTest', { description: 'A paired significance test of the ranking library’s registry (libs/ranking/src/tests)' })
export class SignificanceTestType {
  @Field({ description: 'Registry key: SystemPair.testResults[].test, SystemPair.pTest, MethodDescriptor.test' }) key!: string;
  @Field(() => PairedTest, { nullable: true, description: 'The value a view chooses it by (`leaderboard(test:)`); null for corpus-score tests, which follow their sentence analogue' })
  value!: PairedTest | null;
  @Field() label!: string;
  @Field({ description: 'Only for corpus-level metrics (per-instance sufficient statistics): sacreBLEU paired-bs / paired-ar' }) corpus!: boolean;
  @Field({ description: 'Whether its result carries a statistic besides p' }) statistic!: boolean;
}

@ObjectType('RankingMethod', { description: 'A ranking method of the ranking library’s registry (libs/ranking/src/methods)' })
export class RankingMethodType {
  @Field({ description: 'As in MethodDescriptor.key and MethodValue.method' }) key!: string;
  @Field() label!: string;
  @Field() description!: string;
  @Field({ description: "'bootstrap' or 'game order'" }) intervalKind!: string;
  @Field({ description: "'metric' or 'higher is better'" }) direction!: string;
  @Field(() => String, { nullable: true, description: 'Key of its default cluster test; null: the method has no clusters' }) clusterTest!: string | null;
}

@ObjectType('CorrectionMethod', { description: 'A multiple-comparison correction of the ranking library (libs/ranking/src/correction.ts)' })
export class CorrectionMethodType {
  @Field({ description: 'Key as the ranking library and the CLI (`--correction`) name it (`holm`)' }) key!: string;
  @Field(() => PValueCorrection, { description: 'The value a view chooses it by (`leaderboard(correction:)`)' }) value!: PValueCorrection;
  @Field() label!: string;
}

const CHOOSABLE = new Map<string, PairedTest>(Object.values(PairedTest).map((v) => [v, v]));

/** The ranking registries as data, so the web lists tests, methods and corrections without a copy of them. */
@Resolver()
export class RegistriesResolver {
  @Query(() => [SignificanceTestType], { description: 'Every registered paired test, in table order' })
  significanceTests(): SignificanceTestType[] {
    return PAIRED_TESTS.map(({ key, label, corpus, statistic }) => ({ key, value: CHOOSABLE.get(key) ?? null, label, corpus, statistic }));
  }

  @Query(() => [CorrectionMethodType], { description: 'Every multiple-comparison correction, the default (HOLM) first' })
  pValueCorrections(): CorrectionMethodType[] {
    return CORRECTIONS.map(({ key, label }) => ({ key, value: key, label }));
  }

  @Query(() => [RankingMethodType], { description: 'Every registered ranking method, in table order' })
  rankingMethods(): RankingMethodType[] {
    return registeredMethods();
  }
}
