import type { MetricFolder } from '../../plugin';
import { BERTSCORE_PLUGIN } from './bertscore.plugin';

export {
  BERTSCORE_BASELINE_DATASET,
  BERTSCORE_MODEL_LAYERS,
  BERTSCORE_PLUGIN,
  bertScoreBaselinePath,
  bertScoreDefaultModel,
  bertScoreLayer,
  bertScoreOptionsSchema,
  type BertScoreOptions,
} from './bertscore.plugin';
export { bestOver, greedyMatch, idfFromReferences, parseBaseline, rescale, tokenWeights, type BertScoreBaseline, type BertScorePRF, type IdfTable } from './bertscore';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 60, plugins: [BERTSCORE_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    bertscore: typeof METRIC_FOLDER;
  }
}
