import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { IdentityRepository } from '@podium/db';
import { nameKey, type AuthUser } from '@podium/domain';
import { z } from 'zod';
import { displayNameSchema } from '../common/display-name';
import { parseInput } from '../common/parse-input';
import { assertAdmin } from '../common/visibility';
import { CurrentUser } from './auth.guard';
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
    return { id: user.id, name: user.name, role: user.role, teams: teams.map((t) => ({ id: t.id, name: t.name })), organisedTaskIds: user.organisedTaskIds };
  }

  @Mutation(() => TeamType, { description: 'Administrators: creates a team; unknown member names become participants' })
  async createTeam(
    @Args('name') name: string,
    @Args('members', { type: () => [String], defaultValue: [] }) members: string[],
    @CurrentUser() user: AuthUser | null,
  ): Promise<TeamType> {
    assertAdmin(user);
    const t = parseInput(teamSchema, { name, members });
    const team = await this.identity.createTeam(t.name, t.members);
    return { id: team.id, name: team.name };
  }

  @Mutation(() => String, {
    description: 'Administrators: issues an API token for another user (audited; the user sees who issued it); the plain token is returned only this once',
  })
  async issueToken(@Args('userName') userName: string, @Args('label') label: string, @CurrentUser() user: AuthUser | null): Promise<string> {
    const admin = assertAdmin(user);
    const l = parseInput(nameSchema, label, 'label');
    return (await this.identity.issueTokenOnBehalf(admin.id, userName, l)).token;
  }
}
