import { Args, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { TaskRepository, type AuthUser } from '@podium/db';
import { LoaderScope, RequestLoaders } from '../common/loaders';
import { CurrentUser, OrganiserOnly } from '../auth/auth.guard';
import { toTaskType } from './task.mapper';
import { CreateTaskInput, PhaseType, TaskType, UpdateTaskInput } from './task.types';
import { TasksService } from './tasks.service';

@Resolver(() => TaskType)
export class TasksResolver {
  constructor(
    private readonly loaders: RequestLoaders,
    private readonly service: TasksService,
    private readonly tasks: TaskRepository,
  ) {}

  @Query(() => [TaskType], { name: 'tasks', description: 'All tasks, oldest first' })
  async listTasks(): Promise<TaskType[]> {
    return (await this.service.list()).map(toTaskType);
  }

  @Query(() => TaskType, { description: 'A task by its slug (NOT_FOUND when absent)' })
  async task(@Args('slug') slug: string): Promise<TaskType> {
    return toTaskType(await this.service.bySlug(slug));
  }

  @OrganiserOnly()
  @Mutation(() => TaskType)
  async createTask(@Args('input') input: CreateTaskInput, @CurrentUser() user: AuthUser): Promise<TaskType> {
    return toTaskType(await this.service.create(input, user));
  }

  @OrganiserOnly()
  @Mutation(() => TaskType, { description: 'Edits a task; metrics only before its first submission (CONFLICT after)' })
  async updateTask(@Args('slug') slug: string, @Args('input') input: UpdateTaskInput, @CurrentUser() user: AuthUser): Promise<TaskType> {
    return toTaskType(await this.service.update(slug, input, user));
  }

  @ResolveField(() => [PhaseType])
  async phases(@Parent() task: TaskType, @LoaderScope() req: object): Promise<PhaseType[]> {
    return this.loaders.of(req).phasesOfTask.load(task.id);
  }
}
