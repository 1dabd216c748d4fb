import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { pairTestsOf } from '@podium/leaderboard';
import { PairTests, SystemPair } from './leaderboard.types';

/**
 * `SystemPair.tests`, kept for clients written before `testResults` (ADR 0030): made from the
 * pair's `testResults` by the registry (`pairTestsOf`), not stored with the board (ADR 0033).
 * It follows its pair (`parent`).
 */
@Resolver(() => SystemPair)
export class SystemPairResolver {
  @ResolveField('tests', () => PairTests, { deprecationReason: 'Use testResults: every registered test by its registry key', description: 'Unadjusted p-values of every registered test, by field' })
  tests(@Parent() pair: SystemPair): PairTests {
    return pairTestsOf(pair.testResults);
  }
}
