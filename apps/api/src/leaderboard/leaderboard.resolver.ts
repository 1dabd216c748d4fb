import { Args, ID, Int, Query, Resolver } from '@nestjs/graphql';
import type { AuthUser } from '@podium/db';
import { CurrentUser } from '../auth/auth.guard';
import { Leaderboard, PValueCorrection, PairedTest } from './leaderboard.types';
import { LeaderboardService } from './leaderboard.service';

@Resolver(() => Leaderboard)
export class LeaderboardResolver {
  constructor(private readonly service: LeaderboardService) {}

  @Query(() => Leaderboard, {
    description: 'Ranks the scored systems of a phase under mean, median, Bradley–Terry, Elo and TrueSkill, with paired tests',
  })
  async leaderboard(
    @Args('phaseId', { type: () => ID }) phaseId: string,
    @Args('metric', { type: () => String, nullable: true, description: "Metric key; default the task's first metric. `combined:<nli key>+<other key>` (or `combined`) is MENLI's combination, computed from the stored scores" }) metric: string | undefined,
    @Args('test', { type: () => PairedTest, nullable: true, description: 'Test behind the pairs’ p and every cluster; default t-test for p, per-aggregation tests for clusters' })
    test: PairedTest | undefined,
    @Args('correction', { type: () => PValueCorrection, nullable: true, description: 'Default HOLM' }) correction: PValueCorrection | undefined,
    @Args('seed', { type: () => Int, nullable: true, description: 'Default 12345' }) seed: number | undefined,
    @Args('resamples', { type: () => Int, nullable: true, description: 'Bootstrap resamples; default 1000' }) resamples: number | undefined,
    @Args('allSubmissions', { defaultValue: false, description: "Rank every submission; by default a team that marked a primary submission is ranked by it alone (hidden and disqualified ones never)" })
    allSubmissions: boolean,
    @CurrentUser() user: AuthUser | null,
  ): Promise<Leaderboard> {
    return this.service.leaderboard(
      phaseId,
      {
        metric: metric ?? undefined,
        test: test ?? undefined,
        correction: correction ?? undefined,
        seed: seed ?? undefined,
        resamples: resamples ?? undefined,
        entries: allSubmissions ? 'all' : 'primary',
      },
      user,
    );
  }
}
