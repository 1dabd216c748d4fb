/**
 * The registry entries of the NLI metric and the combined metric, registered into
 * `@podium/metrics`' registry when this library is imported (the same shape as the classical
 * metrics', so the API, worker, CLI and web read one list).
 */
import { registerMetric, type MetricDefinition } from '@podium/metrics';
import { z } from 'zod';
import type { NliDirection, NliFormula } from './nli-metric';

/** The NLI formulas of MENLI (M:487). */
export const NLI_FORMULAS = ['e', '-c', 'e-n', 'e-c', 'e-n-2c'] as const satisfies readonly NliFormula[];
/** Premise directions (M:489–498). */
export const NLI_DIRECTIONS = ['ref->hyp', 'ref<-hyp', 'ref<->hyp', 'src->hyp', 'src<-hyp', 'src<->hyp'] as const satisfies readonly NliDirection[];

/**
 * Options of a task's `nli` metric. Defaults depend on the task kind (`defaultNliOptions`:
 * MT `e` with ↔, summarisation `e-c` ref←hyp), so they are filled in by the scorer, not here;
 * `model` defaults to the deployment's configured model.
 */
export const nliOptionsSchema = z.strictObject({
  model: z.string().min(1).optional(),
  mode: z.enum(['ref', 'src']).optional(),
  formula: z.enum(NLI_FORMULAS).optional(),
  direction: z.enum(NLI_DIRECTIONS).optional(),
  refsAggregation: z.enum(['max', 'mean']).optional(),
  long: z.enum(['truncate', 'chunk']).optional(),
});

/** MENLI's NLI metric (Chen & Eger 2022). The range covers every formula (`formulaRange`: `e` [0, 1] … `e-n-2c` [−2, 1]). */
export const NLI_METRIC_DEFINITION: MetricDefinition = {
  name: 'nli',
  displayName: 'NLI (MENLI)',
  kind: 'sentence',
  higherIsBetter: true,
  range: [-2, 1],
  options: nliOptionsSchema,
  signatureFormat: 'nli|model:<name>@<sha256 12>|formula:<f>|dir:[src]<-> | -> | <-|refs:<max|mean|none>|long:<truncate|chunk>|ep:<provider>|version:<nli version>',
  description: 'probability-based score of an NLI cross-encoder (MENLI); corpus score is the mean over instances',
};

/**
 * The combined metric C = w·N + (1 − w)·M (see `combine.ts`). It is not configured as a task
 * metric: the task's `combinedWeight` and the leaderboard's `combined:<nli>+<other>` key pick it.
 */
export const COMBINED_METRIC_DEFINITION: MetricDefinition = {
  name: 'combined',
  displayName: 'Combined (NLI + metric)',
  kind: 'sentence',
  higherIsBetter: true,
  range: [0, 1],
  options: z.strictObject({ w: z.number().min(0).max(1).optional() }),
  signatureFormat:
    'combined|nli:(<N signature>)|with:(<M signature>)|w:<w>|M-dir:<higher|lower>|scale:<set>-minmax[|N:[lo,hi]|M:[lo,hi]][|n:<cells>]',
  description: 'MENLI combined metric w·N + (1−w)·M, both min–max scaled to [0, 1] over a stated set',
};

registerMetric(NLI_METRIC_DEFINITION);
registerMetric(COMBINED_METRIC_DEFINITION);
