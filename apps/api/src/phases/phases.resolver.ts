import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { TaskRepository } from '@podium/db';
import { NotFoundError, describePhaseState, phaseLifecycleState, type AuthUser } from '@podium/domain';
import { CurrentUser } from '../auth/auth.guard';
import { LoaderScope, RequestLoaders } from '../common/loaders';
import { parseStoredSplit } from '@podium/leaderboard';
import { can, canSeePhaseScores, canSeeReferences, organisesTask, phaseState } from '../common/visibility';
import { TestInputService } from '../test-input/test-input.service';
import { toTaskType } from '../tasks/task.mapper';
import { PhaseImpactType, PhaseLifecycleStateEnum, PhaseSplitType, PhaseType, TaskType, TestSetCommitmentType, TestSetType } from '../tasks/task.types';
import { CreatePhaseInput, HumanScoreInput, TestInstanceInput, UpdatePhaseInput } from './phase.inputs';
import { TestInputPageType } from './test-input.types';
import { PhasesService } from './phases.service';

@Resolver(() => PhaseType)
export class PhasesResolver {
  constructor(
    private readonly loaders: RequestLoaders,
    private readonly service: PhasesService,
    private readonly tasks: TaskRepository,
    private readonly testInputs: TestInputService,
  ) {}

  @Query(() => PhaseType, { description: 'A phase by id (NOT_FOUND when absent)' })
  async phase(@Args('id', { type: () => ID }) id: string): Promise<PhaseType> {
    return this.service.byId(id);
  }

  @Query(() => PhaseImpactType, { description: "What closing, publishing or re-scoring the phase would touch, counted now: the task's organisers (FORBIDDEN otherwise)" })
  async phaseImpact(@Args('id', { type: () => ID }) id: string, @CurrentUser() user: AuthUser | null): Promise<PhaseImpactType> {
    return this.service.impact(id, user);
  }

  @Mutation(() => PhaseType)
  async createPhase(@Args('input') input: CreatePhaseInput, @CurrentUser() user: AuthUser | null): Promise<PhaseType> {
    return this.service.create(input, user);
  }

  @Mutation(() => PhaseType, {
    description:
      'Edits dates and limits (while SCHEDULED or OPEN, without closing or reopening it), the name or the public flag (until PUBLISHED); CONFLICT otherwise: a published phase is final, create a new phase',
  })
  async updatePhase(@Args('id', { type: () => ID }) id: string, @Args('input') input: UpdatePhaseInput, @CurrentUser() user: AuthUser): Promise<PhaseType> {
    return this.service.update(id, input, user);
  }

  @Mutation(() => PhaseType, { description: 'Closes an OPEN phase now, before its closesAt: no more submissions, primaries frozen, who and when recorded (CONFLICT in any other state)' })
  async closePhase(@Args('id', { type: () => ID }) id: string, @CurrentUser() user: AuthUser): Promise<PhaseType> {
    return this.service.close(id, user);
  }

  @Mutation(() => PhaseType, { description: 'Publishes the results of a CLOSED phase: references, all outputs and scores become public. Final (CONFLICT unless CLOSED)' })
  async publishPhase(@Args('id', { type: () => ID }) id: string, @CurrentUser() user: AuthUser): Promise<PhaseType> {
    return this.service.publish(id, user);
  }

  @Mutation(() => TestSetType, { description: 'Attaches a new test set to a phase that has no submissions yet' })
  async uploadTestSet(
    @Args('phaseId', { type: () => ID }) phaseId: string,
    @Args('name') name: string,
    @Args('instances', { type: () => [TestInstanceInput] }) instances: TestInstanceInput[],
    @CurrentUser() user: AuthUser | null,
    @Args('humanScores', { type: () => [HumanScoreInput], nullable: true }) humanScores?: HumanScoreInput[],
  ): Promise<TestSetType> {
    return this.service.uploadTestSet(user, phaseId, name, instances, humanScores ?? []);
  }

  @ResolveField(() => TaskType)
  async task(@Parent() phase: PhaseType, @LoaderScope() req: object): Promise<TaskType> {
    const task = await this.loaders.of(req).task.load(phase.taskId);
    if (!task) throw new NotFoundError('task', phase.taskId);
    return toTaskType(task);
  }

  @ResolveField(() => TestSetType, { nullable: true })
  async testSet(@Parent() phase: PhaseType, @CurrentUser() user: AuthUser | null, @LoaderScope() req: object): Promise<TestSetType | null> {
    if (!phase.testSetId) return null;
    const testSet = await this.loaders.of(req).testSet.load(phase.testSetId);
    if (!testSet) return null;
    // The checksum confirms a guess of the hidden references: organisers only until published (ADR 0014).
    return { id: testSet.id, name: testSet.name, instanceCount: testSet.instanceCount, createdAt: testSet.createdAt, checksum: can('phaseFacts', phase, user) ? testSet.checksum : null };
  }

  @ResolveField(() => PhaseSplitType, { nullable: true, description: 'The public/private split (null: none, or hidden: organisers see it, everyone once published)' })
  split(@Parent() phase: PhaseType, @CurrentUser() user: AuthUser | null): PhaseSplitType | null {
    const split = parseStoredSplit(phase.split);
    if (!split || !(organisesTask(user, phase.taskId) || phase.publishedAt)) return null;
    return { publicIds: split.publicIds ?? null, publicFraction: split.publicFraction ?? null, seed: split.seed, finalOn: split.finalOn };
  }

  @ResolveField(() => Boolean, { description: 'Whether the phase splits its instances into a public and a private part (ADR 0014); everyone may know that' })
  hasSplit(@Parent() phase: PhaseType): boolean {
    return parseStoredSplit(phase.split) !== null;
  }

  @ResolveField(() => TestSetCommitmentType, { nullable: true, description: 'The test-set commitment (null: no test set, or one stored before commitments); its salt once published' })
  async commitment(@Parent() phase: PhaseType): Promise<TestSetCommitmentType | null> {
    return this.service.commitmentOf(phase);
  }

  @ResolveField(() => Boolean, { description: 'Whether teams may submit now (lifecycleState is OPEN)' })
  isOpen(@Parent() phase: PhaseType): boolean {
    return phaseLifecycleState(phase) === 'OPEN';
  }

  @ResolveField(() => String, { description: 'open-hidden, open-public, closed-unpublished or published (the columns of the authorization matrix)' })
  state(@Parent() phase: PhaseType): string {
    return phaseState(phase);
  }

  @ResolveField(() => PhaseLifecycleStateEnum, { description: 'SCHEDULED, OPEN, CLOSED (early or at closesAt) or PUBLISHED (final): see docs/adr/0013-phase-state-machine.md' })
  lifecycleState(@Parent() phase: PhaseType): PhaseLifecycleStateEnum {
    return PhaseLifecycleStateEnum[phaseLifecycleState(phase)];
  }

  @ResolveField(() => String, { description: "The state in words, e.g. 'closed early on 2026-11-25 by alice, published on 2026-11-26 by bob'" })
  async stateDescription(@Parent() phase: PhaseType, @LoaderScope() req: object): Promise<string> {
    const loaders = this.loaders.of(req);
    const [closedBy, publishedBy] = await Promise.all([
      phase.closedById ? loaders.userName.load(phase.closedById) : null,
      phase.publishedById ? loaders.userName.load(phase.publishedById) : null,
    ]);
    const { name, opensAt, closesAt, closedEarlyAt, publishedAt } = phase;
    return describePhaseState({ name, opensAt, closesAt, closedEarlyAt, publishedAt, closedBy, publishedBy });
  }

  @ResolveField(() => Boolean, { description: 'Whether the caller may see the references (organisers; everyone once published)' })
  referencesVisible(@Parent() phase: PhaseType, @CurrentUser() user: AuthUser | null): boolean {
    return canSeeReferences(phase, user);
  }

  @ResolveField(() => TestInputPageType, { description: 'Instance ids and sources in test-set order, never references (also GET /api/phases/:id/test-input.tsv|jsonl|txt)' })
  async testInput(
    @Parent() phase: PhaseType,
    @Args('offset', { type: () => Int, defaultValue: 0 }) offset: number,
    @Args('limit', { type: () => Int, defaultValue: 100 }) limit: number,
    @CurrentUser() user: AuthUser | null,
  ): Promise<TestInputPageType> {
    return this.testInputs.page(phase.id, offset, limit, user);
  }

  @ResolveField(() => Boolean, { description: 'Whether the caller may see the leaderboard and all scores' })
  scoresVisible(@Parent() phase: PhaseType, @CurrentUser() user: AuthUser | null): boolean {
    return canSeePhaseScores(phase, user);
  }

  @ResolveField(() => Int, { nullable: true, description: 'Scored submissions in the phase: whoever may see its leaderboard (null otherwise: a hidden phase keeps its count)' })
  async scoredCount(@Parent() phase: PhaseType, @CurrentUser() user: AuthUser | null, @LoaderScope() req: object): Promise<number | null> {
    // The count is what a public board shows anyway; of a hidden phase it is the organisers' (issue #20).
    if (!can('leaderboard', phase, user)) return null;
    return this.loaders.of(req).scoredCount.load(phase.id);
  }
}
