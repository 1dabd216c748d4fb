import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { SCORE_JOB_MAX_ATTEMPTS } from '@podium/contracts';
import { type Submission, type Team } from '@podium/db';
import { retryNote, type AuthUser } from '@podium/domain';
import { metricHigherIsBetter, taskMetrics } from '@podium/leaderboard';
import { LoaderScope, RequestLoaders } from '../common/loaders';
import { can } from '../common/visibility';
import { CurrentUser } from '../auth/auth.guard';
import { CorpusScoreType, InstanceOrder, InstanceScorePageType, QuotaType, SubmissionType, UploadFormatEnum } from './submission.types';
import { LifecycleService } from '../lifecycle/lifecycle.service';
import { SubmissionsService } from './submissions.service';

export function toSubmissionType(s: Submission & { team?: Team }): SubmissionType {
  return {
    ...s,
    team: s.team ? { id: s.team.id, name: s.team.name } : { id: s.teamId, name: '' },
    maxAttempts: SCORE_JOB_MAX_ATTEMPTS,
    retryNote: retryNote(s, SCORE_JOB_MAX_ATTEMPTS),
  };
}

@Resolver(() => SubmissionType)
export class SubmissionsResolver {
  constructor(
    private readonly loaders: RequestLoaders,
    private readonly service: SubmissionsService,
    private readonly lifecycle: LifecycleService,
  ) {}

  @Query(() => [SubmissionType], { description: "A phase's submissions the caller may see (a team always sees its own)" })
  async submissions(
    @Args('phaseId', { type: () => ID }) phaseId: string,
    @Args('teamId', { type: () => ID, nullable: true }) teamId: string | undefined,
    @CurrentUser() user: AuthUser | null,
  ): Promise<SubmissionType[]> {
    return (await this.service.list(phaseId, teamId ?? undefined, user)).map(toSubmissionType);
  }

  @Query(() => SubmissionType)
  async submission(@Args('id', { type: () => ID }) id: string, @CurrentUser() user: AuthUser | null): Promise<SubmissionType> {
    return toSubmissionType(await this.service.byId(id, user));
  }

  @Query(() => InstanceScorePageType, { description: "One page of a submission's per-instance scores for a metric" })
  async instanceScores(
    @Args('submissionId', { type: () => ID }) submissionId: string,
    @Args('metric', { description: 'A stored metric key, or `combined:<nli>+<other>` (shown once the phase scores are public)' }) metric: string,
    @Args('offset', { type: () => Int, defaultValue: 0 }) offset: number,
    @Args('limit', { type: () => Int, defaultValue: 50 }) limit: number,
    @Args('order', { type: () => InstanceOrder, defaultValue: InstanceOrder.POSITION }) order: InstanceOrder,
    @CurrentUser() user: AuthUser | null,
  ): Promise<InstanceScorePageType> {
    return this.service.instanceScores(submissionId, metric, { offset, limit, order }, user);
  }

  @Query(() => QuotaType, { description: "A team's submissions used and left in a phase (members and organisers)" })
  async quota(
    @Args('phaseId', { type: () => ID }) phaseId: string,
    @Args('teamId', { type: () => ID }) teamId: string,
    @CurrentUser() user: AuthUser,
  ): Promise<QuotaType> {
    return this.service.quota(phaseId, teamId, user);
  }

  @Mutation(() => SubmissionType, {
    description: "A member (or the task's organisers) edits a submission's description and its paper and code links (http(s), at most 500 characters; empty removes a link); fields left out stay",
  })
  async updateSubmissionMetadata(
    @Args('id', { type: () => ID }) id: string,
    @CurrentUser() user: AuthUser,
    @Args('description', { type: () => String, nullable: true }) description?: string | null,
    @Args('paperUrl', { type: () => String, nullable: true }) paperUrl?: string | null,
    @Args('codeUrl', { type: () => String, nullable: true }) codeUrl?: string | null,
  ): Promise<SubmissionType> {
    return toSubmissionType(await this.service.updateMetadata(user, id, { description, paperUrl, codeUrl }));
  }

  @Mutation(() => SubmissionType, { description: 'Submits system outputs for scoring (team members; organisers also for baselines)' })
  async submit(
    @Args('phaseId', { type: () => ID }) phaseId: string,
    @Args('teamId', { type: () => ID }) teamId: string,
    @Args('systemName') systemName: string,
    @Args('content') content: string,
    @Args('format', { type: () => UploadFormatEnum, nullable: true, description: 'Detected from the content when omitted' })
    format: UploadFormatEnum | undefined,
    @Args('description', { type: () => String, nullable: true }) description: string | undefined,
    @Args('isBaseline', { defaultValue: false }) isBaseline: boolean,
    @CurrentUser() user: AuthUser,
  ): Promise<SubmissionType> {
    const created = await this.service.submit(user, {
      phaseId,
      teamId,
      systemName,
      description: description ?? undefined,
      content,
      format: format ?? undefined,
      isBaseline,
    });
    return toSubmissionType(await this.service.byId(created.id, user));
  }

  @Mutation(() => Int, { description: 'Queues one submission, or all of a phase, for scoring again; returns how many' })
  async rescore(
    @Args('submissionId', { type: () => ID, nullable: true }) submissionId: string | undefined,
    @Args('phaseId', { type: () => ID, nullable: true }) phaseId: string | undefined,
    @CurrentUser() user: AuthUser,
  ): Promise<number> {
    return this.lifecycle.rescore(user, { submissionId: submissionId ?? undefined, phaseId: phaseId ?? undefined });
  }

  @Mutation(() => [ID], { description: 'Queues a submission again, or every stuck one (SCORING without a live worker lease); returns their ids' })
  async requeueSubmissions(
    @Args('submissionId', { type: () => ID, nullable: true }) submissionId: string | undefined,
    @Args('stuck', { type: () => Boolean, nullable: true }) stuck: boolean | undefined,
    @CurrentUser() user: AuthUser,
  ): Promise<string[]> {
    return this.service.requeue(user, { submissionId: submissionId ?? undefined, stuck: stuck ?? undefined });
  }

  @ResolveField(() => Boolean, {
    description: "Whether the caller sees this submission's per-instance scores (before publishing, teams of a phase that shows corpus scores only do not; ADR 0014)",
  })
  async instanceScoresVisible(@Parent() submission: SubmissionType, @CurrentUser() user: AuthUser | null, @LoaderScope() req: object): Promise<boolean> {
    const phase = await this.loaders.of(req).phase.load(submission.phaseId);
    return !!phase && can('perInstanceScores', phase, user, submission.teamId);
  }

  @ResolveField(() => [CorpusScoreType], { description: 'On the part the phase ranks now: in a split phase the public part before publishing, the private part (or all) after' })
  async corpusScores(@Parent() submission: SubmissionType, @LoaderScope() req: object): Promise<CorpusScoreType[]> {
    const stored = (await this.loaders.of(req).corpusScores.load(submission.id)).map((c) => ({ metric: c.metric, value: c.value, signature: c.signature }));
    const { part, scores } = await this.service.corpusScoresOnPart(submission, stored);
    const loaders = this.loaders.of(req);
    const phase = await loaders.phase.load(submission.phaseId);
    const task = phase ? await loaders.task.load(phase.taskId) : null;
    const configured = task ? taskMetrics(task) : [];
    return scores.map((c) => ({ ...c, part, higherIsBetter: metricHigherIsBetter(configured.find((m) => m.key === c.metric)?.name ?? c.metric) }));
  }
}
