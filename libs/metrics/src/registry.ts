/**
 * The metric registry, built from the plugin folders (`plugins/index.ts`): one
 * {@link MetricPlugin} per metric name holds every fact about the metric that is not a score —
 * capability, direction, range, options (a zod schema with the defaults), signature format and
 * display name — and, for the metrics computed here, the factory. The API validates a task's
 * metric options here, the worker and CLI dispatch on capabilities read here, and the web gets
 * the same facts through the GraphQL `metrics` query.
 */
import { MetricInputError } from './errors';
import type { DerivedMetricPlugin, MetricDefinition, MetricPlugin } from './plugin';
import { METRIC_PLUGINS } from './plugins';

/**
 * A metric's options failed validation; `metric` and `option` point at the culprit
 * (`option` is empty when the options as a whole are wrong).
 * Example message: `option 'tokenise' does not apply to bleu (allowed: tokenize, lowercase, …)`.
 */
export class MetricOptionError extends MetricInputError {
  constructor(
    readonly metric: string,
    readonly option: string,
    message: string,
  ) {
    super(message);
    this.name = 'MetricOptionError';
  }
}

/** A set of plugins by name; {@link createMetricRegistry} checks it is consistent. */
export interface MetricRegistry {
  /** The plugin of `name`, or undefined. */
  plugin(name: string): MetricPlugin | undefined;
  /** Every plugin, in the order given (classical metrics first, then model and derived). */
  plugins(): readonly MetricPlugin[];
}

/**
 * Builds a registry from plugin folders' exports. Throws on a name given twice, a definition
 * whose capability differs from its plugin's, or a kind that does not follow from the capability.
 * Example: `createMetricRegistry([...METRIC_PLUGINS, myPlugin]).plugin('my-metric')`.
 */
export function createMetricRegistry(plugins: readonly MetricPlugin[]): MetricRegistry {
  const byName = new Map<string, MetricPlugin>();
  for (const p of plugins) {
    const d = p.definition;
    if (byName.has(d.name)) throw new Error(`metric '${d.name}' is registered twice`);
    if (d.capability !== p.capability) throw new Error(`metric '${d.name}': definition says ${d.capability}, plugin ${p.capability}`);
    if (d.kind !== (p.capability === 'statistics' ? 'corpus' : 'sentence')) throw new Error(`metric '${d.name}': kind ${d.kind} does not follow from capability ${p.capability}`);
    byName.set(d.name, p);
  }
  const list = [...byName.values()];
  return { plugin: (name) => byName.get(name), plugins: () => list };
}

const registry = createMetricRegistry(METRIC_PLUGINS);

/** The plugin of `name`, or undefined. Example: `metricPlugin('nli')?.capability` → `'model'`. */
export function metricPlugin(name: string): MetricPlugin | undefined {
  return registry.plugin(name);
}

/** The plugin of `name`; throws {@link MetricInputError} naming the registered metrics otherwise. */
export function requireMetricPlugin(name: string): MetricPlugin {
  const p = registry.plugin(name);
  if (!p) throw new MetricInputError(`unknown metric '${name}' (expected one of ${registry.plugins().map((q) => q.definition.name).join(', ')})`);
  return p;
}

/** Every registered plugin, classical metrics first. */
export function metricPlugins(): readonly MetricPlugin[] {
  return registry.plugins();
}

/** The definition of `name`, or undefined. Example: `metricDefinition('ter')?.higherIsBetter` → false. */
export function metricDefinition(name: string): MetricDefinition | undefined {
  return registry.plugin(name)?.definition;
}

/** The definition of `name`; throws {@link MetricInputError} naming the registered metrics otherwise. */
export function requireMetricDefinition(name: string): MetricDefinition {
  return requireMetricPlugin(name).definition;
}

/** Every registered definition, in registration order (classical metrics first). */
export function registeredMetrics(): readonly MetricDefinition[] {
  return registry.plugins().map((p) => p.definition);
}

/**
 * Names a task may configure: every metric but the derived ones (the task's weight enables the
 * combined metric). Example: `configurableMetricNames()` → `['bleu', …, 'rougeLsum', 'nli']`.
 */
export function configurableMetricNames(): ConfigurableMetricName[] {
  return [...CONFIGURABLE_METRIC_NAMES];
}

/** Names of the plugins a task may configure (every capability but `derived`), from the plugin list. */
export type ConfigurableMetricName = Exclude<(typeof METRIC_PLUGINS)[number], DerivedMetricPlugin>['definition']['name'];

/** Every {@link ConfigurableMetricName}, in display order; a non-empty tuple for `z.enum`. */
export const CONFIGURABLE_METRIC_NAMES = METRIC_PLUGINS.filter((p): p is Exclude<(typeof METRIC_PLUGINS)[number], DerivedMetricPlugin> => p.capability !== 'derived').map(
  (p) => p.definition.name,
) as unknown as readonly [ConfigurableMetricName, ...ConfigurableMetricName[]];

/**
 * Whether a larger score of metric `name` is better, from its registry entry. A name the
 * registry does not know (scores stored under a metric since removed) is read as
 * higher-is-better, the direction of most metrics: the one place that default is stated.
 * Example: `metricHigherIsBetter('ter')` → false.
 */
export function metricHigherIsBetter(name: string): boolean {
  return registry.plugin(name)?.definition.higherIsBetter ?? UNKNOWN_METRIC_HIGHER_IS_BETTER;
}

/** Direction assumed for a metric name the registry does not know (see {@link metricHigherIsBetter}). */
export const UNKNOWN_METRIC_HIGHER_IS_BETTER = true;

function describeType(expected: string): string {
  if (expected === 'boolean') return 'must be true or false';
  if (expected === 'number') return 'must be a number';
  if (expected === 'int') return 'must be an integer';
  if (expected === 'string') return 'must be a string';
  return `must be of type ${expected}`;
}

/**
 * Validates a loosely typed option record (as a task stores it) against the registered schema
 * of `name` and returns it with the defaults filled in. Throws {@link MetricOptionError} naming
 * the metric and the option. Example: `validateMetricOptions('bleu', { tokenise: 'intl' })`
 * throws `option 'tokenise' does not apply to bleu (allowed: tokenize, …)`.
 */
export function validateMetricOptions(name: string, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return parseOptionsWith(requireMetricDefinition(name), record);
}

/**
 * {@link validateMetricOptions} against a given definition (one not in this registry, e.g. a
 * plugin under test). Example: `parseOptionsWith(BLEU_PLUGIN.definition, {}).tokenize` → `'13a'`.
 */
export function parseOptionsWith(d: MetricDefinition, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const name = d.name;
  const defined = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
  const r = d.options.safeParse(defined);
  if (r.success) return r.data;
  const [issue] = r.error.issues;
  if (!issue) throw new Error(`invalid options for ${name}`); // zod reports at least one issue on failure
  if (issue.code === 'unrecognized_keys') {
    const allowed = optionNames(d);
    const key = issue.keys[0] ?? '';
    throw new MetricOptionError(name, key, `option '${key}' does not apply to ${name} (allowed: ${allowed.length > 0 ? allowed.join(', ') : 'none'})`);
  }
  const key = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && key !== '' && defined[key] !== undefined) {
    throw new MetricOptionError(name, key, `option '${key}' of ${name} ${describeType(issue.expected)}`);
  }
  throw new MetricOptionError(name, key, key === '' ? `options of ${name}: ${issue.message}` : `option '${key}' of ${name}: ${issue.message}`);
}

/** Option names a definition accepts (the keys of its zod object). */
export function optionNames(d: MetricDefinition): string[] {
  const shape = (d.options as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}
