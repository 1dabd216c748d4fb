import { Args, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from '@nestjs/graphql';
import type { AuthUser } from '@podium/db';
import { CurrentUser } from '../auth/auth.guard';
import { Leaderboard, PValueCorrection, PairedTest } from './leaderboard.types';
import { LeaderboardService } from './leaderboard.service';

@ObjectType({ description: "A phase's significance settings for its leaderboard (organiser settings)" })
export class PhaseSignificance {
  @Field(() => ID) phaseId!: string;
  @Field(() => Int, { nullable: true, description: 'Bootstrap resamples and randomisation trials; null = chosen from the number of pairs, α and correction' })
  resamples!: number | null;
  @Field(() => Int) seed!: number;
}

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
    @Args('seed', { type: () => Int, nullable: true, description: "Organisers only (preview): default the phase's seed" }) seed: number | undefined,
    @Args('resamples', { type: () => Int, nullable: true, description: "Organisers only (preview): default the phase's setting, else chosen so the smallest corrected p is ≤ α/10" })
    resamples: number | undefined,
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

  @Mutation(() => PhaseSignificance, { description: "Organisers: set a phase's leaderboard resamples (null = automatic) and seed; results are recomputed once per setting" })
  async setPhaseSignificance(
    @Args('phaseId', { type: () => ID }) phaseId: string,
    @Args('resamples', { type: () => Int, nullable: true }) resamples: number | null | undefined,
    @Args('seed', { type: () => Int, nullable: true, description: 'Default 12345' }) seed: number | undefined,
    @CurrentUser() user: AuthUser | null,
  ): Promise<PhaseSignificance> {
    return this.service.setSignificance(phaseId, { resamples: resamples ?? null, seed: seed ?? 12345 }, user);
  }
}
