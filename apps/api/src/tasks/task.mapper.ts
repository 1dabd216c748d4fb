import { TASK_KINDS, type MetricConfig, type TaskKindName } from '@podium/contracts';
import { TaskKind, type Task } from '@podium/db';
import type { MetricConfigType, TaskType } from './task.types';

const KIND_TO_DB: Record<TaskKindName, TaskKind> = {
  mt: TaskKind.MT,
  summarization: TaskKind.SUMMARIZATION,
  'data-to-text': TaskKind.DATA_TO_TEXT,
  other: TaskKind.OTHER,
};

export function kindToDb(kind: TaskKindName): TaskKind {
  return KIND_TO_DB[kind];
}

export function kindFromDb(kind: TaskKind): TaskKindName {
  return TASK_KINDS.find((k) => KIND_TO_DB[k] === kind) ?? 'other';
}

/** The task's metric list as stored (validated when written). */
export function taskMetrics(task: Pick<Task, 'metrics'>): MetricConfig[] {
  return Array.isArray(task.metrics) ? (task.metrics as unknown as MetricConfig[]) : [];
}

export function toTaskType(task: Task): TaskType {
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
    createdAt: task.createdAt,
  };
}
