import { metricConfigListSchema, parseRobustnessSuite, robustnessSuiteIdSchema, type RobustnessMode } from '@podium/contracts';
import { InvalidInputError } from '@podium/domain';
import { BUILTIN_SUITES } from '@podium/datasets';
import { SUPPORTED_GENERATOR_LANGUAGES } from '@podium/robustness';

/** The suite robustness reports and report cards use when none is named. */
export const DEFAULT_ROBUSTNESS_SUITE = 'builtin:wmt20-de';

export interface RunRobustnessArgs {
  metric?: string | null;
  suite?: string | null;
  mode?: string | null;
}

export interface RobustnessRun {
  /** Metric keys to test, in the task's order. */
  metrics: string[];
  suite: string;
  mode: RobustnessMode;
}

/**
 * Validates `runRobustness` arguments against the task: the metric must be one of its keys
 * (all of them when none is named), the suite a known built-in or `generated:<seed>`, and a
 * generated suite needs mode `ref` and English references. Errors name the field.
 */
export function parseRunRobustnessArgs(args: RunRobustnessArgs, task: { slug: string; targetLang: string; metrics: unknown }): RobustnessRun {
  const mode = args.mode ?? 'ref';
  if (mode !== 'ref' && mode !== 'src') throw new InvalidInputError(`mode must be ref or src, not '${mode}'`, { field: 'mode' });
  const suiteId = robustnessSuiteIdSchema.safeParse(args.suite ?? DEFAULT_ROBUSTNESS_SUITE);
  if (!suiteId.success) throw new InvalidInputError(suiteId.error.issues[0]?.message ?? 'invalid suite', { field: 'suite' });
  const suite = parseRobustnessSuite(suiteId.data);
  if (suite.kind === 'builtin' && !Object.hasOwn(BUILTIN_SUITES, suite.id)) {
    throw new InvalidInputError(`unknown built-in suite '${suite.id}' (known: ${Object.keys(BUILTIN_SUITES).join(', ')})`, { field: 'suite' });
  }
  if (suite.kind === 'generated') {
    if (mode !== 'ref') throw new InvalidInputError('generated suites are reference-based only; use mode ref', { field: 'mode' });
    const language = task.targetLang.replace(/[-_][\s\S]*$/, '').toLowerCase(); // up to the first - or _
    if (!(SUPPORTED_GENERATOR_LANGUAGES as readonly string[]).includes(language)) {
      throw new InvalidInputError(
        `suites can be generated from English references only; task '${task.slug}' has target language '${task.targetLang}'`,
        { field: 'suite' },
      );
    }
  }
  const configured = metricConfigListSchema.safeParse(task.metrics);
  if (!configured.success) throw new InvalidInputError(`task '${task.slug}' has an invalid metric configuration`, { field: 'metric' });
  const keys = configured.data.map((m) => m.key);
  if (args.metric !== undefined && args.metric !== null) {
    if (!keys.includes(args.metric)) {
      throw new InvalidInputError(`task '${task.slug}' has no metric '${args.metric}' (its metrics: ${keys.join(', ')})`, { field: 'metric' });
    }
    return { metrics: [args.metric], suite: suite.id, mode };
  }
  return { metrics: keys, suite: suite.id, mode };
}
