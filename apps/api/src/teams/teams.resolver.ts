import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { IdentityRepository } from '@podium/db';
import { ForbiddenError, NotFoundError, type AuthUser } from '@podium/domain';
import { z } from 'zod';
import { CurrentUser } from '../auth/auth.guard';
import { TeamType } from '../auth/identity.types';
import { assertId } from '../common/ids';
import { displayNameSchema } from '../common/display-name';
import { parseInput } from '../common/parse-input';
import { isAdmin, organisesTask } from '../common/visibility';
import { ApiTokenInfoType, NewApiTokenType, TeamDetailsType } from './teams.types';

const teamNameSchema = displayNameSchema({ field: 'name' });
const labelSchema = z.string().trim().min(1, 'label must not be empty').max(100);

function toTokenInfo(t: { id: string; label: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null; issuedBy: { name: string } | null }): ApiTokenInfoType {
  return { id: t.id, label: t.label, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, revokedAt: t.revokedAt, issuedBy: t.issuedBy?.name ?? null };
}

/** Teams a participant creates or joins with an invite code, and the caller's API tokens. */
@Resolver()
export class TeamsResolver {
  constructor(private readonly identity: IdentityRepository) {}

  @Query(() => [TeamType], { description: 'All teams by name' })
  async teams(): Promise<TeamType[]> {
    return (await this.identity.listTeams()).map((t) => ({ id: t.id, name: t.name }));
  }

  private async details(team: { id: string; name: string; createdAt: Date; inviteCode: string; ownerId: string | null }, insider: boolean): Promise<TeamDetailsType> {
    return { id: team.id, name: team.name, createdAt: team.createdAt, ownerId: team.ownerId, members: insider ? await this.identity.membersOf(team.id) : null, inviteCode: insider ? team.inviteCode : null };
  }

  private async existingTeam(id: string) {
    assertId('team', id);
    const team = await this.identity.teamById(id);
    if (!team) throw new NotFoundError('team', id);
    return team;
  }

  @Query(() => TeamDetailsType, { description: 'A team page (members and the invite code only for its members, organisers of its tasks and administrators)' })
  async team(@Args('id', { type: () => ID }) id: string, @CurrentUser() user: AuthUser | null): Promise<TeamDetailsType> {
    const team = await this.existingTeam(id);
    return this.details(team, await this.isInsider(user, id));
  }

  /** Members, organisers of a task the team registered for, administrators (rule `teamInsider`). */
  private async isInsider(user: AuthUser | null, teamId: string): Promise<boolean> {
    if (!user) return false;
    if (user.teamIds.includes(teamId) || isAdmin(user)) return true;
    if (user.organisedTaskIds.length === 0) return false;
    return (await this.identity.taskIdsOfTeam(teamId)).some((taskId) => organisesTask(user, taskId));
  }

  @Mutation(() => TeamDetailsType, { description: 'Creates a team with the caller as its first member and owner (CONFLICT when the name is taken, up to case and NFKC)' })
  async createMyTeam(@Args('name') name: string, @CurrentUser() user: AuthUser): Promise<TeamDetailsType> {
    const team = await this.identity.createOwnTeam(user.id, parseInput(teamNameSchema, name, 'name'));
    return this.details(team, true);
  }

  @Mutation(() => TeamDetailsType, { description: 'Joins the team whose invite code this is (FORBIDDEN where a task of the team allows one team per person and the caller is in another)' })
  async joinTeam(@Args('inviteCode') inviteCode: string, @CurrentUser() user: AuthUser): Promise<TeamDetailsType> {
    const team = await this.identity.joinTeam(user.id, inviteCode.trim());
    return this.details(team, true);
  }

  @Mutation(() => TeamDetailsType, { description: 'Replaces the invite code (members and administrators); the old code stops working at once' })
  async rotateInviteCode(@Args('teamId', { type: () => ID }) teamId: string, @CurrentUser() user: AuthUser): Promise<TeamDetailsType> {
    await this.existingTeam(teamId);
    if (!isAdmin(user) && !user.teamIds.includes(teamId)) throw new ForbiddenError('only members of the team and administrators may replace its invite code');
    return this.details(await this.identity.rotateInviteCode(teamId), true);
  }

  @Mutation(() => TeamDetailsType, {
    description: "Leaves a team of the caller's; an owner who leaves hands ownership to the longest-standing member. The team's submissions stay.",
  })
  async leaveTeam(@Args('teamId', { type: () => ID }) teamId: string, @CurrentUser() user: AuthUser): Promise<TeamDetailsType> {
    await this.existingTeam(teamId);
    if (!user.teamIds.includes(teamId)) throw new ForbiddenError('you are not a member of this team');
    return this.details(await this.identity.removeMember(teamId, user.id), false);
  }

  @Mutation(() => TeamDetailsType, { description: "Removes another member from a team (the team's owner, or an administrator); to leave yourself use leaveTeam" })
  async removeTeamMember(
    @Args('teamId', { type: () => ID }) teamId: string,
    @Args('userId', { type: () => ID }) userId: string,
    @CurrentUser() user: AuthUser,
  ): Promise<TeamDetailsType> {
    const team = await this.existingTeam(teamId);
    assertId('user', userId);
    if (!isAdmin(user) && team.ownerId !== user.id) throw new ForbiddenError("only the team's owner or an administrator may remove members");
    if (userId === user.id) throw new ForbiddenError('use leaveTeam to leave a team yourself');
    const updated = await this.identity.removeMember(teamId, userId);
    return this.details(updated, isAdmin(user) || user.teamIds.includes(teamId));
  }

  @Query(() => [ApiTokenInfoType], { description: "The caller's API tokens, newest first, without their values" })
  async myTokens(@CurrentUser() user: AuthUser): Promise<ApiTokenInfoType[]> {
    return (await this.identity.tokensOf(user.id)).map(toTokenInfo);
  }

  @Mutation(() => NewApiTokenType, { description: 'Creates an API token for the caller; the value is returned only this once' })
  async createToken(@Args('label') label: string, @CurrentUser() user: AuthUser): Promise<NewApiTokenType> {
    const token = await this.identity.issueToken(user.id, parseInput(labelSchema, label, 'label'));
    const [info] = await this.identity.tokensOf(user.id); // newest first
    if (!info) throw new Error('the token just issued is not listed');
    return { info: toTokenInfo(info), token };
  }

  @Mutation(() => ApiTokenInfoType, { description: "Revokes one of the caller's tokens; it stops working at once" })
  async revokeToken(@Args('id', { type: () => ID }) id: string, @CurrentUser() user: AuthUser): Promise<ApiTokenInfoType> {
    assertId('token', id);
    const t = await this.identity.revokeToken(user.id, id);
    return { id: t.id, label: t.label, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, revokedAt: t.revokedAt, issuedBy: null };
  }
}
