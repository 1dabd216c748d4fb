/**
 * The combined metric's plugin: C = w·N + (1 − w)·M over the stored instance scores of a
 * `model` metric (N, the NLI score) and a `statistics`, `instance` or `embedding` metric (M;
 * MENLI combines NLI with BERTScore and MoverScore). It is not
 * configured as a task metric: the task's `combinedWeight` and the leaderboard's
 * `combined:<nli>+<other>` key pick it. The formula is in `combine.ts`, the one implementation.
 */
import { z } from 'zod';
import type { DerivedMetricPlugin, MetricCapability } from '../../plugin';
import { combineScores } from './combine';

export const COMBINED_PLUGIN: DerivedMetricPlugin<'combined'> = {
  capability: 'derived',
  components: { weighted: 'model', other: ['statistics', 'instance', 'embedding'] },
  derive: (weighted, other, w, otherHigherIsBetter) => combineScores(weighted, other, w, { otherHigherIsBetter }).values,
  conformance: [
    {
      weighted: [0, 0.5, 1],
      other: [10, 30, 20],
      w: 0.2,
      otherHigherIsBetter: true,
      values: [0, 0.9, 0.6],
      tolerance: 1e-12,
      source: 'MENLI C = w·N + (1 − w)·M (M:1265–1271) by hand: N = [0, .5, 1], M = [0, 1, .5] after min–max scaling',
    },
    {
      weighted: [0, 0.5, 1, 0.5],
      other: [10, 30, 20, 30],
      w: 0.2,
      otherHigherIsBetter: false,
      values: [0.8, 0.1, 0.6, 0.1],
      tolerance: 1e-12,
      source: 'MENLI by hand with a lower-is-better M (TER-like, flipped): M = [1, 0, .5, 0]',
    },
  ],
  definition: {
    name: 'combined',
    displayName: 'Combined (NLI + metric)',
    capability: 'derived',
    kind: 'sentence',
    higherIsBetter: true,
    range: [0, 1],
    options: z.strictObject({ w: z.number().min(0).max(1).optional() }),
    signatureFormat:
      'combined|nli:(<N signature>)|with:(<M signature>)|w:<w>|M-dir:<higher|lower>|scale:<set>-minmax[|N:[lo,hi]|M:[lo,hi]][|n:<cells>]',
    description: 'MENLI combined metric w·N + (1−w)·M, both min–max scaled to [0, 1] over a stated set',
  },
};

/** Backwards-compatible name of the combined plugin's definition. */
export const COMBINED_METRIC_DEFINITION = COMBINED_PLUGIN.definition;

/**
 * The role a metric of capability `capability` can take in the combined metric: `weighted`
 * (N, the NLI score), `other` (M), or null (not combinable).
 * Example: `combinedRole('model')` → `'weighted'`; `combinedRole('statistics')` → `'other'`.
 */
export function combinedRole(capability: MetricCapability | undefined): 'weighted' | 'other' | null {
  if (capability === undefined) return null;
  if (capability === COMBINED_PLUGIN.components.weighted) return 'weighted';
  return COMBINED_PLUGIN.components.other.includes(capability) ? 'other' : null;
}
