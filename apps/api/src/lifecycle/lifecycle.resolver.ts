import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { IdentityRepository, LifecycleRepository, Moderation, TaskRepository } from '@podium/db';
import { NotFoundError, type AuthUser } from '@podium/domain';
import { assertId } from '../common/ids';
import { assertActsForTeam, can, isAdmin, viewerRole } from '../common/visibility';
import { PhaseType } from '../tasks/task.types';
import { LoaderScope, RequestLoaders } from '../common/loaders';
import { CurrentUser } from '../auth/auth.guard';
import { SubmissionType } from '../submissions/submission.types';
import { toSubmissionType } from '../submissions/submissions.resolver';
import { AuditEntryType, DuplicateOfType, ScoreHistoryEntryType, TaskRegistrationType } from './lifecycle.types';
import { LifecycleService } from './lifecycle.service';

const brief = (s: { id: string; phaseId: string; teamId: string; systemName: string }) => ({ id: s.id, phaseId: s.phaseId, teamId: s.teamId });

/** The organiser's lifecycle of a task's submissions, and fields of Submission it adds. */
@Resolver(() => SubmissionType)
export class LifecycleResolver {
  constructor(
    private readonly loaders: RequestLoaders,
    private readonly service: LifecycleService,
    private readonly lifecycle: LifecycleRepository,
    private readonly tasks: TaskRepository,
    private readonly identity: IdentityRepository,
  ) {}

  @Query(() => [SubmissionType], {
    description: "A team's submissions in every phase, newest first (its members and administrators; organisers of its tasks: in their tasks)",
  })
  async teamSubmissions(@Args('teamId', { type: () => ID }) teamId: string, @CurrentUser() user: AuthUser | null): Promise<SubmissionType[]> {
    assertId('team', teamId);
    if (user && !user.teamIds.includes(teamId) && !isAdmin(user) && user.organisedTaskIds.length > 0) {
      const organised = (await this.identity.taskIdsOfTeam(teamId)).filter((taskId) => user.organisedTaskIds.includes(taskId));
      if (organised.length > 0) return (await this.lifecycle.submissionsOfTeam(teamId, 200, organised)).map(toSubmissionType);
    }
    assertActsForTeam(teamId, user);
    return (await this.lifecycle.submissionsOfTeam(teamId)).map(toSubmissionType);
  }

  @ResolveField(() => PhaseType, { description: 'The phase the submission belongs to' })
  async phase(@Parent() s: SubmissionType, @LoaderScope() req: object): Promise<PhaseType> {
    const phase = await this.loaders.of(req).phase.load(s.phaseId);
    if (!phase) throw new NotFoundError('phase', s.phaseId);
    return phase;
  }

  @Mutation(() => ID, {
    description: 'Hides or disqualifies a submission with a reason shown to its team and organisers (to everyone only with reasonPublic: true); NONE clears it; returns its id',
  })
  async moderateSubmission(
    @Args('id', { type: () => ID }) id: string,
    @Args('moderation', { type: () => Moderation }) moderation: Moderation,
    @Args('reason', { type: () => String, nullable: true }) reason: string | undefined,
    @Args('reasonPublic', { type: () => Boolean, defaultValue: false, description: 'Show the reason to everyone who sees the submission (default: its team and organisers only)' })
    reasonPublic: boolean,
    @CurrentUser() user: AuthUser,
  ): Promise<string> {
    return brief(await this.service.moderate(user, id, moderation, reason ?? undefined, reasonPublic)).id;
  }

  @ResolveField(() => String, { nullable: true, description: "The organiser's reason for hiding or disqualifying it: seen by its team and organisers, by everyone only when moderationReasonPublic" })
  async moderationReason(@Parent() s: SubmissionType, @CurrentUser() user: AuthUser | null, @LoaderScope() req: object): Promise<string | null> {
    if (s.moderationReasonPublic || s.moderationReason === null) return s.moderationReason;
    if (!user) return null;
    const phase = await this.loaders.of(req).phase.load(s.phaseId);
    if (!phase) return null;
    const role = viewerRole(user, phase.taskId, s.teamId);
    return role === 'ownTeam' || role === 'organiser' ? s.moderationReason : null;
  }

  @Mutation(() => ID, { description: 'Marks a submission as a baseline (or not); returns its id' })
  async setBaseline(@Args('id', { type: () => ID }) id: string, @Args('isBaseline') isBaseline: boolean, @CurrentUser() user: AuthUser): Promise<string> {
    return brief(await this.service.setBaseline(user, id, isBaseline)).id;
  }

  @Mutation(() => ID, {
    description: "Switches the team's primary submission of the phase (the one the default leaderboard ranks), while the phase is OPEN (CONFLICT after it closed: primaries are frozen); audited; returns its id",
  })
  async markPrimary(@Args('id', { type: () => ID }) id: string, @CurrentUser() user: AuthUser): Promise<string> {
    return brief(await this.service.markPrimary(user, id)).id;
  }

  @Mutation(() => Int, { description: 'Re-scores every submission of a phase (after a metric fix), keeping the replaced scores and signatures in the history' })
  async rescorePhase(@Args('phaseId', { type: () => ID }) phaseId: string, @CurrentUser() user: AuthUser): Promise<number> {
    return this.service.rescore(user, { phaseId });
  }

  @Query(() => [AuditEntryType], { description: 'Organiser actions, newest first (organisers only)' })
  async auditLog(
    @Args('taskSlug', { type: () => String, nullable: true }) taskSlug: string | undefined,
    @Args('limit', { type: () => Int, defaultValue: 200 }) limit: number,
    @CurrentUser() user: AuthUser,
  ): Promise<AuditEntryType[]> {
    return this.service.auditLog(user, taskSlug ?? undefined, limit);
  }

  @Mutation(() => TaskRegistrationType, { description: 'Registers a team for a task: approved at once when its registration is OPEN, else PENDING' })
  async registerTeam(@Args('taskSlug') taskSlug: string, @Args('teamId', { type: () => ID }) teamId: string, @CurrentUser() user: AuthUser) {
    const r = await this.service.register(user, taskSlug, teamId);
    return { team: { id: teamId, name: '' }, status: r.status, createdAt: r.createdAt };
  }

  @Mutation(() => TaskRegistrationType, { description: "Approves a team's pending registration for a task" })
  async approveRegistration(@Args('taskSlug') taskSlug: string, @Args('teamId', { type: () => ID }) teamId: string, @CurrentUser() user: AuthUser) {
    const r = await this.service.approve(user, taskSlug, teamId);
    return { team: { id: teamId, name: '' }, status: r.status, createdAt: r.createdAt };
  }

  @Query(() => [TaskRegistrationType], { description: "A task's team registrations (organisers only)" })
  async registrations(@Args('taskSlug') taskSlug: string, @CurrentUser() user: AuthUser): Promise<TaskRegistrationType[]> {
    return (await this.service.registrations(user, taskSlug)).map((r) => ({ team: { id: r.team.id, name: r.team.name }, status: r.status, createdAt: r.createdAt }));
  }

  @ResolveField(() => DuplicateOfType, { nullable: true, description: "An earlier submission of the same team in the phase with identical outputs, if any (another team's: crossTeamDuplicateOf)" })
  async duplicateOf(@Parent() s: SubmissionType): Promise<DuplicateOfType | null> {
    const full = s as SubmissionType & { checksum?: string };
    if (!full.checksum) return null;
    return this.lifecycle.duplicateOf({ id: s.id, phaseId: s.phaseId, teamId: s.teamId, checksum: full.checksum, createdAt: s.createdAt }, 'sameTeam');
  }

  @ResolveField(() => DuplicateOfType, {
    nullable: true,
    description: "An earlier submission of another team in the phase with identical outputs, if any; organisers only (null for everyone else), so no team can test what another submitted",
  })
  async crossTeamDuplicateOf(@Parent() s: SubmissionType, @CurrentUser() user: AuthUser | null, @LoaderScope() req: object): Promise<DuplicateOfType | null> {
    const full = s as SubmissionType & { checksum?: string };
    if (!full.checksum) return null;
    const phase = await this.loaders.of(req).phase.load(s.phaseId);
    if (!phase || !can('crossTeamDuplicates', phase, user)) return null;
    return this.lifecycle.duplicateOf({ id: s.id, phaseId: s.phaseId, teamId: s.teamId, checksum: full.checksum, createdAt: s.createdAt }, 'otherTeams');
  }

  @ResolveField(() => [ScoreHistoryEntryType], { description: 'Corpus scores replaced by re-scores, newest first, with their signatures' })
  async scoreHistory(@Parent() s: SubmissionType): Promise<ScoreHistoryEntryType[]> {
    return this.lifecycle.scoreHistory(s.id);
  }
}
