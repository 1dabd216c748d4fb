import { CONFIGURABLE_METRIC_NAMES, type ConfigurableMetricName } from '@podium/metrics';
import { z } from 'zod';

/** Task kinds as the API names them. */
export const TASK_KINDS = ['mt', 'summarization', 'data-to-text', 'other'] as const;
export type TaskKindName = (typeof TASK_KINDS)[number];

/** Name of each task kind for people (the web's kind picker); the API, CLI and web read it from here. */
export const TASK_KIND_LABELS = {
  mt: 'Machine translation',
  summarization: 'Summarization',
  'data-to-text': 'Data-to-text',
  other: 'Other',
} as const satisfies Record<TaskKindName, string>;

/** Database spelling of each task kind (the Prisma enum `TaskKind`); the one mapping between them. */
export const TASK_KIND_DB = {
  mt: 'MT',
  summarization: 'SUMMARIZATION',
  'data-to-text': 'DATA_TO_TEXT',
  other: 'OTHER',
} as const satisfies Record<TaskKindName, string>;

/** The task kind a database value names, or undefined. Example: `taskKindFromDb('DATA_TO_TEXT')` → `'data-to-text'`. */
export function taskKindFromDb(kind: string): TaskKindName | undefined {
  return TASK_KINDS.find((k) => TASK_KIND_DB[k] === kind);
}

/**
 * Metric names a task may configure: every plugin of the registry in @podium/metrics but the
 * derived ones (the combined metric is enabled by the task's weight instead). Derived from the
 * plugin folders, so a new metric is configurable without an edit here.
 */
export const CONFIGURABLE_METRICS = CONFIGURABLE_METRIC_NAMES;
export type ConfigurableMetric = ConfigurableMetricName;

const optionValue = z.union([z.string().max(200), z.number(), z.boolean()]);

/**
 * One metric configured on a task: `key` names the stored scores (unique per task),
 * `name` picks the implementation, `options` are passed to it verbatim.
 */
export const metricConfigSchema = z.object({
  key: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/, 'metric key may contain letters, digits and _ . + - only'),
  name: z.enum(CONFIGURABLE_METRICS),
  options: z.record(z.string(), optionValue).default({}),
});
export type MetricConfig = z.infer<typeof metricConfigSchema>;

export const metricConfigListSchema = z
  .array(metricConfigSchema)
  .min(1, 'a task needs at least one metric')
  .max(20)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const [i, m] of list.entries()) {
      if (seen.has(m.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `duplicate metric key '${m.key}'` });
      seen.add(m.key);
    }
  });

/** Default metrics of a new task when the organiser names none. */
export function defaultMetricsFor(kind: TaskKindName): MetricConfig[] {
  if (kind === 'summarization') {
    return [
      { key: 'rougeL', name: 'rougeL', options: {} },
      { key: 'rouge1', name: 'rouge1', options: {} },
      { key: 'rouge2', name: 'rouge2', options: {} },
      { key: 'chrf', name: 'chrf', options: {} },
    ];
  }
  return [
    { key: 'bleu', name: 'bleu', options: {} },
    { key: 'chrf', name: 'chrf', options: {} },
    { key: 'ter', name: 'ter', options: {} },
  ];
}
