import type { MetricFolder } from '../../plugin';
import { COMBINED_PLUGIN } from './combined.plugin';

export { COMBINED_METRIC_DEFINITION, COMBINED_PLUGIN, combinedRole } from './combined.plugin';
export {
  DEFAULT_COMBINE_WEIGHT,
  combineScores,
  combineWeightFor,
  combinedCorpus,
  combinedSignature,
  minMaxScale,
  type CombineOptions,
  type CombinedScores,
  type CombinedSignatureParts,
} from './combine';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 100, plugins: [COMBINED_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    combined: typeof METRIC_FOLDER;
  }
}
