import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { LoaderScope, RequestLoaders } from '../common/loaders';
import { LeaderboardSystem } from './leaderboard.types';

/**
 * The paper and code links of a board row's submission (issue #22), read when asked, not stored
 * with the board: a team edits them after scoring. A row is on the board only when its submission
 * is (hidden ones are left out), so the links follow the row (`parent`).
 */
@Resolver(() => LeaderboardSystem)
export class LeaderboardSystemResolver {
  constructor(private readonly loaders: RequestLoaders) {}

  @ResolveField('paperUrl', () => String, { nullable: true, description: "The paper the team gives for this system (http or https)" })
  async paperUrl(@Parent() row: LeaderboardSystem, @LoaderScope() req: object): Promise<string | null> {
    return (await this.loaders.of(req).submissionLinks.load(row.submissionId))?.paperUrl ?? null;
  }

  @ResolveField('codeUrl', () => String, { nullable: true, description: "The system's code the team gives (http or https)" })
  async codeUrl(@Parent() row: LeaderboardSystem, @LoaderScope() req: object): Promise<string | null> {
    return (await this.loaders.of(req).submissionLinks.load(row.submissionId))?.codeUrl ?? null;
  }
}
