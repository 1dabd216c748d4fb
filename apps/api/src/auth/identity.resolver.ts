import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { IdentityRepository, NotFoundError, nameKey, type AuthUser } from '@podium/db';
import { z } from 'zod';
import { displayNameSchema } from '../common/display-name';
import { parseInput } from '../common/parse-input';
import { CurrentUser, OrganiserOnly } from './auth.guard';
import { TeamType, UserType } from './identity.types';

const nameSchema = z.string().trim().min(1, 'must not be empty').max(100);
const teamSchema = z.object({
  name: displayNameSchema({ field: 'name', min: 1 }),
  members: z
    .array(displayNameSchema({ field: 'member name', min: 1, noAt: true }))
    .max(100)
    .refine((m) => new Set(m.map(nameKey)).size === m.length, 'members must not repeat (names are compared up to case and NFKC)'),
});

@Resolver()
export class IdentityResolver {
  constructor(private readonly identity: IdentityRepository) {}

  @Query(() => UserType, { nullable: true, description: 'The caller, or null when anonymous' })
  async me(@CurrentUser() user: AuthUser | null): Promise<UserType | null> {
    if (!user) return null;
    const teams = await this.identity.teamsOfUser(user.id);
    return { id: user.id, name: user.name, role: user.role, teams: teams.map((t) => ({ id: t.id, name: t.name })) };
  }

  @OrganiserOnly()
  @Mutation(() => TeamType, { description: 'Creates a team; unknown member names become participants' })
  async createTeam(
    @Args('name') name: string,
    @Args('members', { type: () => [String], defaultValue: [] }) members: string[],
  ): Promise<TeamType> {
    const t = parseInput(teamSchema, { name, members });
    const team = await this.identity.createTeam(t.name, t.members);
    return { id: team.id, name: team.name };
  }

  @OrganiserOnly()
  @Mutation(() => String, { description: 'Issues an API token for a user; the plain token is returned only this once' })
  async issueToken(@Args('userName') userName: string, @Args('label') label: string): Promise<string> {
    const l = parseInput(nameSchema, label, 'label');
    const user = await this.identity.userByName(userName);
    if (!user) throw new NotFoundError('user', userName);
    return this.identity.issueToken(user.id, l);
  }
}
