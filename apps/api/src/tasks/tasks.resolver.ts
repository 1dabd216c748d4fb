import { Args, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { TaskRepository } from '@podium/db';
import { type AuthUser } from '@podium/domain';
import { LoaderScope, RequestLoaders } from '../common/loaders';
import { CurrentUser } from '../auth/auth.guard';
import { toTaskType } from './task.mapper';
import { CreateTaskInput, PhaseType, TaskOrganiserType, TaskType, UpdateTaskInput } from './task.types';
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

  @Mutation(() => TaskType)
  async createTask(@Args('input') input: CreateTaskInput, @CurrentUser() user: AuthUser): Promise<TaskType> {
    return toTaskType(await this.service.create(input, user));
  }

  @Mutation(() => TaskType, { description: 'Edits a task; metrics only before its first submission (CONFLICT after)' })
  async updateTask(@Args('slug') slug: string, @Args('input') input: UpdateTaskInput, @CurrentUser() user: AuthUser): Promise<TaskType> {
    return toTaskType(await this.service.update(slug, input, user));
  }

  @Query(() => [TaskOrganiserType], { description: "A task's organisers (its organisers and administrators only)" })
  async taskOrganisers(@Args('slug') slug: string, @CurrentUser() user: AuthUser | null): Promise<TaskOrganiserType[]> {
    return this.service.organisers(slug, user);
  }

  @Mutation(() => [TaskOrganiserType], { description: "Organisers of the task: adds a user as another organiser of it (audited); returns the task's organisers" })
  async addTaskOrganiser(@Args('slug') slug: string, @Args('userName') userName: string, @CurrentUser() user: AuthUser | null): Promise<TaskOrganiserType[]> {
    return this.service.addOrganiser(slug, userName, user);
  }

  @Mutation(() => [TaskOrganiserType], { description: "Organisers of the task: removes an organiser (CONFLICT for the last one; audited); returns the task's organisers" })
  async removeTaskOrganiser(@Args('slug') slug: string, @Args('userName') userName: string, @CurrentUser() user: AuthUser | null): Promise<TaskOrganiserType[]> {
    return this.service.removeOrganiser(slug, userName, user);
  }

  @ResolveField(() => [PhaseType])
  async phases(@Parent() task: TaskType, @LoaderScope() req: object): Promise<PhaseType[]> {
    return this.loaders.of(req).phasesOfTask.load(task.id);
  }
}
