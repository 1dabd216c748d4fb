/**
 * The NLI plugin (MENLI, Chen & Eger 2022): registry facts and options only. Scoring needs an
 * NLI cross-encoder, which the host injects (the worker's NLI adapter, the CLI's `--nli-model`;
 * onnxruntime lives in @podium/nli), so this folder holds no model code.
 */
import { z } from 'zod';
import type { ModelMetricPlugin } from '../../plugin';

/** The NLI formulas of MENLI (M:487). */
export const NLI_FORMULAS = ['e', '-c', 'e-n', 'e-c', 'e-n-2c'] as const;
/** Premise directions (M:489–498). */
export const NLI_DIRECTIONS = ['ref->hyp', 'ref<-hyp', 'ref<->hyp', 'src->hyp', 'src<-hyp', 'src<->hyp'] as const;

/**
 * Options of a task's `nli` metric. Defaults depend on the task kind (`defaultNliOptions` of
 * @podium/nli: MT `e` with ↔, summarisation `e-c` ref←hyp), so they are filled in by the scorer,
 * not here; `model` defaults to the deployment's configured model.
 */
export const nliOptionsSchema = z.strictObject({
  model: z.string().min(1).optional(),
  mode: z.enum(['ref', 'src']).optional(),
  formula: z.enum(NLI_FORMULAS).optional(),
  direction: z.enum(NLI_DIRECTIONS).optional(),
  refsAggregation: z.enum(['max', 'mean']).optional(),
  long: z.enum(['truncate', 'chunk']).optional(),
});

/** MENLI's NLI metric. The range covers every formula (`formulaRange`: `e` [0, 1] … `e-n-2c` [−2, 1]). */
export const NLI_PLUGIN: ModelMetricPlugin<'nli'> = {
  capability: 'model',
  requirement: 'an NLI model',
  definition: {
    name: 'nli',
    displayName: 'NLI (MENLI)',
    capability: 'model',
    kind: 'sentence',
    higherIsBetter: true,
    range: [-2, 1],
    options: nliOptionsSchema,
    signatureFormat: 'nli|model:<name>@<sha256 12>|formula:<f>|dir:[src]<-> | -> | <-|refs:<max|mean|none>|long:<truncate|chunk>|ep:<provider>|version:<nli version>',
    description: 'probability-based score of an NLI cross-encoder (MENLI); corpus score is the mean over instances',
  },
};

/** Backwards-compatible name of the NLI plugin's definition. */
export const NLI_METRIC_DEFINITION = NLI_PLUGIN.definition;
