import { TASK_KIND_DB, type TaskKindName } from '@podium/contracts';
import { kindFromDb, taskMetrics } from '@podium/leaderboard';
import { TaskKind, type Task } from '@podium/db';
import type { MetricConfigType, TaskType } from './task.types';

export function kindToDb(kind: TaskKindName): TaskKind {
  return TaskKind[TASK_KIND_DB[kind]];
}

export { kindFromDb, taskMetrics } from '@podium/leaderboard';

export function toTaskType(task: Task): TaskType {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- task.metrics is stored JSON that taskMetrics() casts unchecked; old rows may lack options
  const metrics: MetricConfigType[] = taskMetrics(task).map((m) => ({ key: m.key, name: m.name, options: m.options ?? {} }));
  return {
    id: task.id,
    slug: task.slug,
    title: task.title,
    description: task.description,
    kind: kindFromDb(task.kind),
    sourceLang: task.sourceLang,
    targetLang: task.targetLang,
    metrics,
    combinedWeight: task.combinedWeight,
    registration: task.registration,
    oneTeamPerPerson: task.oneTeamPerPerson,
    createdAt: task.createdAt,
  };
}
