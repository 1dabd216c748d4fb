/**
 * What a metric plugin is. Every metric lives in one folder under `plugins/<name>/` that exports
 * one or more {@link MetricPlugin}s: its registry facts ({@link MetricDefinition}: name, label,
 * direction, range, options schema, signature format), what it can do (its
 * {@link MetricCapability}) and, for metrics computed here, a factory and reference vectors.
 * The registry (`registry.ts`) is built from `plugins/index.ts`, and the worker, API and CLI
 * dispatch on the capability, never on a metric's name (ADR 0022).
 */
import type { z } from 'zod';
import type { EmbeddingMetricPlugin } from './embedding';
import type { Metric } from './metric';

/**
 * - `statistics`: an instance becomes additive sufficient statistics and the corpus score is a
 *   function of their column sums (BLEU, chrF, TER, as sacreBLEU);
 * - `instance`: an instance becomes a row of statistics, the corpus score is the mean of the
 *   instance scores (ROUGE, as rouge-score);
 * - `model`: scored by a model runtime that the host (worker, CLI) injects; the definition here
 *   holds no model code (NLI);
 * - `derived`: computed from other metrics' stored instance scores (the combined metric);
 * - `embedding`: computed here from the vectors of a text encoder the host runs (BERTScore,
 *   MoverScore, …; the contract is `embedding.ts`); the corpus score is the mean of the instances.
 */
export type MetricCapability = 'statistics' | 'instance' | 'model' | 'derived' | 'embedding';

/**
 * `corpus`: the corpus score comes from summed statistics; `sentence`: it is the mean of the
 * instance scores. Follows from the capability ({@link kindOfCapability}).
 */
export type MetricKind = 'corpus' | 'sentence';

/** The {@link MetricKind} a capability implies: only `statistics` metrics are corpus-level. */
export function kindOfCapability(capability: MetricCapability): MetricKind {
  return capability === 'statistics' ? 'corpus' : 'sentence';
}

/** Every fact about one metric that does not depend on the text being scored. */
export interface MetricDefinition<N extends string = string> {
  /** Name a task configures, e.g. `chrf++`. */
  readonly name: N;
  /** Name for people, e.g. `chrF++`. */
  readonly displayName: string;
  readonly capability: MetricCapability;
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
  /** True when a newline inside a text separates sentences the metric scores apart (ROUGE-Lsum). */
  readonly newlineSeparatesSentences?: boolean;
}

/**
 * One reference vector of the shared conformance test (`conformance.spec.ts`): `refs[k][i]` is
 * the k-th reference of hypothesis i; `corpus` and `instances` are the reference
 * implementation's outputs, `source` says where they come from.
 */
export interface ConformanceCase {
  readonly hyps: readonly string[];
  readonly refs: readonly (readonly string[])[];
  readonly options?: Readonly<Record<string, unknown>>;
  /** Corpus score (at least one of `corpus` and `instances` is given). */
  readonly corpus?: number;
  readonly instances?: readonly number[];
  /** Absolute tolerance of the comparison. */
  readonly tolerance: number;
  /** Reference implementation and version, or the file the values were taken from. */
  readonly source: string;
}

/** A metric computed in this library from the texts: `statistics` or `instance`. */
export interface ComputedMetricPlugin<N extends string = string> {
  readonly capability: 'statistics' | 'instance';
  readonly definition: MetricDefinition<N>;
  /**
   * The configured metric: `options` are already validated by `definition.options` (defaults
   * filled in); `nrefs` only enters the signature.
   */
  create(options: Readonly<Record<string, unknown>>, nrefs: number): Metric;
  /** Reference vectors every plugin must pass (at least one). */
  readonly conformance: readonly ConformanceCase[];
}

/** A metric a host-injected model computes; `requirement` names what the host must provide. */
export interface ModelMetricPlugin<N extends string = string> {
  readonly capability: 'model';
  readonly definition: MetricDefinition<N>;
  /** In words, e.g. `an NLI model`: the error when a host has none says it. */
  readonly requirement: string;
}

/** A reference vector of a derived metric: component scores in, derived instance values out. */
export interface DerivedConformanceCase {
  readonly weighted: readonly number[];
  readonly other: readonly number[];
  readonly w: number;
  readonly otherHigherIsBetter: boolean;
  readonly values: readonly number[];
  readonly tolerance: number;
  readonly source: string;
}

/** A metric computed from other metrics' instance scores. */
export interface DerivedMetricPlugin<N extends string = string> {
  readonly capability: 'derived';
  readonly definition: MetricDefinition<N>;
  /** Capability of the weighted component (`N` of C = w·N + (1 − w)·M) and of the other ones. */
  readonly components: { readonly weighted: MetricCapability; readonly other: readonly MetricCapability[] };
  /** Instance values over one normalisation set (every instance given). */
  derive(weighted: readonly number[], other: readonly number[], w: number, otherHigherIsBetter: boolean): number[];
  /** Reference vectors every derived plugin must pass (at least one). */
  readonly conformance: readonly DerivedConformanceCase[];
}

export type MetricPlugin<N extends string = string> = ComputedMetricPlugin<N> | ModelMetricPlugin<N> | DerivedMetricPlugin<N> | EmbeddingMetricPlugin<N>;

/** True for the plugins scored from a text encoder's vectors (`embedding`). */
export function isEmbeddingPlugin(p: MetricPlugin): p is EmbeddingMetricPlugin {
  return p.capability === 'embedding';
}

/** True for the plugins this library scores from the texts alone. */
export function isComputedPlugin(p: MetricPlugin): p is ComputedMetricPlugin {
  return p.capability === 'statistics' || p.capability === 'instance';
}

/**
 * What a plugin folder's `index.ts` exports as `METRIC_FOLDER`: its plugins and where the folder
 * sorts among the others (ascending; the registry lists plugins by folder, then in the folder's
 * order). The registry finds folders by themselves (`plugins/index.ts`, ADR 0033).
 */
export interface MetricFolder {
  readonly order: number;
  readonly plugins: readonly MetricPlugin[];
}

/**
 * Every plugin folder's `METRIC_FOLDER` by folder name, for the types only: each folder adds its
 * own entry by module augmentation in its `index.ts`, so `MetricName` and the other name unions
 * follow the folders without a list, e.g.
 * `declare module '../../plugin' { interface MetricFolders { bleu: typeof METRIC_FOLDER } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the folders' augmentations
export interface MetricFolders {}
