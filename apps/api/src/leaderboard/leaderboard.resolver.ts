import { Args, Context, Field, ID, Int, Mutation, ObjectType, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { AuthUser } from '@podium/domain';
import { CurrentUser } from '../auth/auth.guard';
import { Leaderboard, PValueCorrection, PairedTest, SystemPair } from './leaderboard.types';
import { LeaderboardService } from './leaderboard.service';
import { BoardAnswers, leaderboardOptions } from './board-answers';
import { assertIntegerArg } from '../common/integer-args';

@ObjectType({ description: "A phase's significance settings for its leaderboard (organiser settings)" })
export class PhaseSignificance {
  @Field(() => ID) phaseId!: string;
  @Field(() => Int, { nullable: true, description: 'Bootstrap resamples and randomisation trials; null = chosen from the number of pairs, α and correction' })
  resamples!: number | null;
  @Field(() => Int) seed!: number;
}

/** Most pairs one `pairs` field answers when `first` is given (100 systems have 4,950 pairs). */
export const MAX_PAIRS_PAGE = 10_000;

/** The pairs involving `system` (all without it), then `offset`/`first` applied; INVALID_INPUT naming the argument. */
export function selectPairs(pairs: readonly SystemPair[], args: { system?: string | null; first?: number | null; offset?: number | null }): SystemPair[] {
  const { system, first, offset } = args;
  if (first !== undefined && first !== null) assertIntegerArg('first', first, 0, MAX_PAIRS_PAGE);
  if (offset !== undefined && offset !== null) assertIntegerArg('offset', offset, 0);
  const involving = system === undefined || system === null ? pairs : pairs.filter((p) => p.aSubmissionId === system || p.bSubmissionId === system);
  const start = offset ?? 0;
  return involving.slice(start, first === undefined || first === null ? undefined : start + first);
}

@Resolver(() => Leaderboard)
export class LeaderboardResolver {
  constructor(
    private readonly service: LeaderboardService,
    private readonly answers: BoardAnswers,
  ) {}

  @Query(() => Leaderboard, {
    description: 'Ranks the scored systems of a phase under every ranking method (see Leaderboard.methods), with paired tests',
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
    @Context() context: object,
  ): Promise<Leaderboard> {
    const { snapshot, viewer } = await this.service.view(phaseId, leaderboardOptions({ metric, test, correction, seed, resamples, allSubmissions }), user);
    // What the answer was made from, for BoardAnswers (which keeps it only if it matches its key).
    this.answers.noteServed(context, viewer, snapshot);
    return this.service.boardOf(snapshot);
  }

  // The board is the parsed stored document: these slice its pairs; a board whose pairs are
  // stored apart (more systems than PODIUM_LEADERBOARD_PAIRS_APART_ABOVE) reads its tiles.
  @ResolveField('pairs', () => [SystemPair], {
    description:
      'Head-to-head pairs in the stored order (n systems: n(n − 1)/2; a board of more than 100 systems lists them tile by tile, see GET /api/phases/:id/leaderboard-pairs.json). All of them unless `system`, `first` or `offset` narrow them; `pairCount` says how many there are',
  })
  async pairs(
    @Parent() board: Leaderboard,
    @Args('system', { type: () => ID, nullable: true, description: 'Only the pairs involving this submission' }) system: string | null | undefined,
    @Args('first', { type: () => Int, nullable: true, description: `At most this many pairs (0–${MAX_PAIRS_PAGE}); default all` }) first: number | null | undefined,
    @Args('offset', { type: () => Int, nullable: true, description: 'Pairs to skip first (≥ 0); default 0' }) offset: number | null | undefined,
  ): Promise<SystemPair[]> {
    return selectPairs(await this.service.allPairs(board), { system, first, offset });
  }

  @ResolveField('pairCount', () => Int, { description: 'How many pairs `pairs` has with the same `system` (all pairs without it), for paging with first and offset' })
  async pairCount(@Parent() board: Leaderboard, @Args('system', { type: () => ID, nullable: true, description: 'Count only the pairs involving this submission' }) system: string | null | undefined): Promise<number> {
    return selectPairs(await this.service.allPairs(board), { system }).length;
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
