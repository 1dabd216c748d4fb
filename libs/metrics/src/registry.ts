/**
 * The metric registry: one {@link MetricDefinition} per metric name holds every fact about the
 * metric that is not a score — kind, direction, range, options (a zod schema with the
 * defaults), signature format and display name. The classical metrics register themselves in
 * `metric.ts`; `@podium/nli` registers `nli` and `combined` into the same registry when it is
 * imported. The API validates a task's metric options here, the worker and CLI read kinds and
 * directions here, and the web gets the same facts through the GraphQL `metrics` query.
 */
import type { z } from 'zod';
import { MetricInputError } from './errors';

/**
 * `corpus`: instances give additive sufficient statistics and the corpus score is a function
 * of their column sums (BLEU, chrF, TER, as sacreBLEU). `sentence`: the corpus score is the
 * mean of the instance scores (ROUGE, NLI, the combined metric).
 */
export type MetricKind = 'corpus' | 'sentence';

/** Every fact about one metric that does not depend on the text being scored. */
export interface MetricDefinition {
  /** Name a task configures, e.g. `chrf++`. */
  readonly name: string;
  /** Name for people, e.g. `chrF++`. */
  readonly displayName: string;
  readonly kind: MetricKind;
  /** Whether a larger score is better (false for TER, which counts edits). */
  readonly higherIsBetter: boolean;
  /** Score range with the default options; `Infinity` where unbounded (TER). */
  readonly range: readonly [number, number];
  /**
   * Options as a strict zod object: unknown keys are rejected, defaults are filled in.
   * Defaults that depend on the task kind (NLI) are applied by the scorer and only described.
   */
  readonly options: z.ZodType<Record<string, unknown>>;
  /** Shape of the score signature, e.g. `bleu|nrefs:N|case:…|eff:…|tok:…|smooth:…|version:…`. */
  readonly signatureFormat: string;
  /** One line on what is scored and the reference implementation. */
  readonly description: string;
}

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

const registry = new Map<string, MetricDefinition>();

/**
 * Adds a definition. Registering the same object again is a no-op (a lib imported twice);
 * a different definition under a taken name is a programming error and throws.
 * Example: `registerMetric({ name: 'nli', displayName: 'NLI (MENLI)', … })`.
 */
export function registerMetric(definition: MetricDefinition): void {
  const existing = registry.get(definition.name);
  if (existing && existing !== definition) throw new Error(`metric '${definition.name}' is already registered`);
  registry.set(definition.name, definition);
}

/** The definition of `name`, or undefined. Example: `metricDefinition('ter')?.higherIsBetter` → false. */
export function metricDefinition(name: string): MetricDefinition | undefined {
  return registry.get(name);
}

/** The definition of `name`; throws {@link MetricInputError} naming the registered metrics otherwise. */
export function requireMetricDefinition(name: string): MetricDefinition {
  const d = registry.get(name);
  if (!d) throw new MetricInputError(`unknown metric '${name}' (expected one of ${[...registry.keys()].join(', ')})`);
  return d;
}

/** Every registered definition, in registration order (classical metrics first). */
export function registeredMetrics(): readonly MetricDefinition[] {
  return [...registry.values()];
}

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
  const d = requireMetricDefinition(name);
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
