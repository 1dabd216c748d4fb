import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { NotFoundError, TaskRepository, type AuthUser } from '@podium/db';
import { CurrentUser, OrganiserOnly } from '../auth/auth.guard';
import { canSeePhaseScores } from '../common/visibility';
import { toTaskType } from '../tasks/task.mapper';
import { PhaseType, TaskType, TestSetType } from '../tasks/task.types';
import { CreatePhaseInput, HumanScoreInput, TestInstanceInput } from './phase.inputs';
import { PhasesService } from './phases.service';

@Resolver(() => PhaseType)
export class PhasesResolver {
  constructor(
    private readonly service: PhasesService,
    private readonly tasks: TaskRepository,
  ) {}

  @Query(() => PhaseType, { description: 'A phase by id (NOT_FOUND when absent)' })
  async phase(@Args('id', { type: () => ID }) id: string): Promise<PhaseType> {
    return this.service.byId(id);
  }

  @OrganiserOnly()
  @Mutation(() => PhaseType)
  async createPhase(@Args('input') input: CreatePhaseInput): Promise<PhaseType> {
    return this.service.create(input);
  }

  @OrganiserOnly()
  @Mutation(() => TestSetType, { description: 'Attaches a new test set to a phase that has no submissions yet' })
  async uploadTestSet(
    @Args('phaseId', { type: () => ID }) phaseId: string,
    @Args('name') name: string,
    @Args('instances', { type: () => [TestInstanceInput] }) instances: TestInstanceInput[],
    @Args('humanScores', { type: () => [HumanScoreInput], nullable: true }) humanScores?: HumanScoreInput[],
  ): Promise<TestSetType> {
    return this.service.uploadTestSet(phaseId, name, instances, humanScores ?? []);
  }

  @ResolveField(() => TaskType)
  async task(@Parent() phase: PhaseType): Promise<TaskType> {
    const task = await this.tasks.taskById(phase.taskId);
    if (!task) throw new NotFoundError('task', phase.taskId);
    return toTaskType(task);
  }

  @ResolveField(() => TestSetType, { nullable: true })
  async testSet(@Parent() phase: PhaseType): Promise<TestSetType | null> {
    if (!phase.testSetId) return null;
    return (await this.service.byId(phase.id)).testSet;
  }

  @ResolveField(() => Boolean, { description: 'Whether submissions are accepted now' })
  isOpen(@Parent() phase: PhaseType): boolean {
    const now = Date.now();
    return phase.opensAt.getTime() <= now && now < phase.closesAt.getTime();
  }

  @ResolveField(() => Boolean, { description: 'Whether the caller may see the leaderboard and all scores' })
  scoresVisible(@Parent() phase: PhaseType, @CurrentUser() user: AuthUser | null): boolean {
    return canSeePhaseScores(phase, user);
  }

  @ResolveField(() => Int, { description: 'Scored submissions in the phase' })
  async scoredCount(@Parent() phase: PhaseType): Promise<number> {
    return (await this.tasks.systemCounts([phase.id])).get(phase.id) ?? 0;
  }
}
