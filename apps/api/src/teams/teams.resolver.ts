import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { IdentityRepository, NotFoundError, type AuthUser } from '@podium/db';
import { z } from 'zod';
import { CurrentUser } from '../auth/auth.guard';
import { TeamType } from '../auth/identity.types';
import { assertId } from '../common/ids';
import { parseInput } from '../common/parse-input';
import { isAdmin, organisesTask } from '../common/visibility';
import { ApiTokenInfoType, NewApiTokenType, TeamDetailsType } from './teams.types';

const teamNameSchema = z
  .string()
  .trim()
  .min(2, 'name must have at least 2 characters')
  .max(100, 'name may have at most 100 characters')
  .regex(/^[^\p{Cc}]*$/u, 'name must not contain control characters');
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

  @Query(() => TeamDetailsType, { description: 'A team page (members and the invite code only for its members, organisers of its tasks and administrators)' })
  async team(@Args('id', { type: () => ID }) id: string, @CurrentUser() user: AuthUser | null): Promise<TeamDetailsType> {
    assertId('team', id);
    const team = await this.identity.teamById(id);
    if (!team) throw new NotFoundError('team', id);
    const insider = await this.isInsider(user, id);
    return { id: team.id, name: team.name, createdAt: team.createdAt, members: insider ? await this.identity.membersOf(id) : null, inviteCode: insider ? team.inviteCode : null };
  }

  /** Members, organisers of a task the team registered for, administrators (rule `teamInsider`). */
  private async isInsider(user: AuthUser | null, teamId: string): Promise<boolean> {
    if (!user) return false;
    if (user.teamIds.includes(teamId) || isAdmin(user)) return true;
    if (user.organisedTaskIds.length === 0) return false;
    return (await this.identity.taskIdsOfTeam(teamId)).some((taskId) => organisesTask(user, taskId));
  }

  @Mutation(() => TeamDetailsType, { description: 'Creates a team with the caller as its first member (CONFLICT when the name is taken)' })
  async createMyTeam(@Args('name') name: string, @CurrentUser() user: AuthUser): Promise<TeamDetailsType> {
    const team = await this.identity.createOwnTeam(user.id, parseInput(teamNameSchema, name, 'name'));
    return { id: team.id, name: team.name, createdAt: team.createdAt, members: await this.identity.membersOf(team.id), inviteCode: team.inviteCode };
  }

  @Mutation(() => TeamDetailsType, { description: 'Joins the team whose invite code this is' })
  async joinTeam(@Args('inviteCode') inviteCode: string, @CurrentUser() user: AuthUser): Promise<TeamDetailsType> {
    const team = await this.identity.joinTeam(user.id, inviteCode.trim());
    return { id: team.id, name: team.name, createdAt: team.createdAt, members: await this.identity.membersOf(team.id), inviteCode: team.inviteCode };
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
