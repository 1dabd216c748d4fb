import { Injectable } from '@nestjs/common';
import { TASK_KINDS, defaultMetricsFor, metricConfigListSchema } from '@podium/contracts';
import { LifecycleRepository, Registration, TaskRepository, type Prisma, type Task } from '@podium/db';
import { ConflictError, NotFoundError, type AuthUser } from '@podium/domain';
import { z } from 'zod';
import { parseInput } from '../common/parse-input';
import { assertCanCreateTasks, assertTaskOrganiser } from '../common/visibility';
import { checkMetricOptions } from './metric-options';
import { kindToDb } from './task.mapper';
import type { CreateTaskInput, UpdateTaskInput } from './task.types';

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

const langSchema = z.string().regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, 'must be a language code such as en, de or pt-BR');

export const createTaskSchema = z.object({
  slug: z.string().regex(SLUG_PATTERN, 'slug must match ^[a-z0-9][a-z0-9-]{1,62}$ (lower-case letters, digits, hyphens)'),
  title: z.string().trim().min(1, 'title must not be empty').max(200),
  description: z.string().max(20_000).default(''),
  kind: z.enum(TASK_KINDS, { error: `kind must be one of ${TASK_KINDS.join(', ')}` }),
  sourceLang: langSchema,
  targetLang: langSchema,
  metrics: metricConfigListSchema.optional(),
  combinedWeight: z.number().min(0, 'combinedWeight must be in [0, 1]').max(1, 'combinedWeight must be in [0, 1]').nullable().default(null),
});

const updateTaskSchema = createTaskSchema
  .pick({ title: true, description: true, metrics: true })
  .partial()
  .extend({ combinedWeight: z.number().min(0, 'combinedWeight must be in [0, 1]').max(1, 'combinedWeight must be in [0, 1]').optional() });

@Injectable()
export class TasksService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly lifecycle: LifecycleRepository,
  ) {}

  async list(): Promise<Task[]> {
    return this.tasks.listTasks();
  }

  async bySlug(slug: string): Promise<Task> {
    const task = await this.tasks.taskBySlug(slug);
    if (!task) throw new NotFoundError('task', slug);
    return task;
  }

  /** Organisers and administrators create tasks; the creator becomes the task's first organiser. */
  async create(input: CreateTaskInput, user: AuthUser | null): Promise<Task> {
    const organiser = assertCanCreateTasks(user);
    // eslint-disable-next-line @typescript-eslint/no-misused-spread -- copies the GraphQL input's fields into a plain object on purpose
    const parsed = parseInput(createTaskSchema, { ...input, description: input.description ?? undefined, metrics: input.metrics ?? undefined, combinedWeight: input.combinedWeight ?? undefined });
    const metrics = parsed.metrics ?? defaultMetricsFor(parsed.kind);
    checkMetricOptions(metrics);
    return this.tasks.createTask({
      slug: parsed.slug,
      title: parsed.title,
      description: parsed.description,
      kind: kindToDb(parsed.kind),
      sourceLang: parsed.sourceLang,
      targetLang: parsed.targetLang,
      metrics: metrics,
      combinedWeight: parsed.combinedWeight,
      createdById: organiser.id,
      registration: input.registration ?? Registration.OPEN,
      oneTeamPerPerson: input.oneTeamPerPerson ?? false,
    }, true);
  }

  /** The task's organisers (for its organisers and administrators). */
  async organisers(slug: string, user: AuthUser | null) {
    const task = await this.bySlug(slug);
    assertTaskOrganiser(user, task.id);
    return (await this.tasks.organisersOf(task.id)).map((o) => ({ userId: o.user.id, name: o.user.name, addedBy: o.addedBy?.name ?? null, createdAt: o.createdAt }));
  }

  /** An organiser of the task (or an administrator) adds another organiser; audited. */
  async addOrganiser(slug: string, userName: string, user: AuthUser | null) {
    const task = await this.bySlug(slug);
    const actor = assertTaskOrganiser(user, task.id);
    await this.tasks.addOrganiser(task.id, userName.trim(), actor.id);
    return this.organisers(slug, actor);
  }

  /** Removes an organiser (not the last one); audited. */
  async removeOrganiser(slug: string, userName: string, user: AuthUser | null) {
    const task = await this.bySlug(slug);
    const actor = assertTaskOrganiser(user, task.id);
    await this.tasks.removeOrganiser(task.id, userName.trim(), actor.id);
    return this.organisers(slug, actor);
  }

  /** Edits a task; its metrics are frozen once any phase of it has a submission. */
  async update(slug: string, input: UpdateTaskInput, user: AuthUser | null): Promise<Task> {
    const task = await this.bySlug(slug);
    const organiser = assertTaskOrganiser(user, task.id);
    const p = parseInput(updateTaskSchema, {
      title: input.title ?? undefined,
      description: input.description ?? undefined,
      metrics: input.metrics ?? undefined,
      combinedWeight: input.combinedWeight ?? undefined,
    });
    if (p.metrics !== undefined && (await this.lifecycle.submissionCountOfTask(task.id)) > 0) {
      throw new ConflictError(`the metrics of task '${slug}' cannot change after the first submission; re-score instead after a metric fix`, { field: 'metrics' });
    }
    const changes = {
      ...(p.title !== undefined ? { title: p.title } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
      ...(p.metrics !== undefined ? { metrics: p.metrics as unknown as Prisma.InputJsonValue } : {}),
      ...(p.combinedWeight !== undefined ? { combinedWeight: p.combinedWeight } : {}),
      ...(input.registration ? { registration: input.registration } : {}),
      ...(typeof input.oneTeamPerPerson === 'boolean' ? { oneTeamPerPerson: input.oneTeamPerPerson } : {}),
    };
    return this.lifecycle.updateTask(task.id, changes, {
      actorId: organiser.id,
      action: 'task.update',
      targetType: 'task',
      targetId: task.id,
      details: { taskId: task.id, slug, fields: Object.keys(changes) },
    });
  }
}
