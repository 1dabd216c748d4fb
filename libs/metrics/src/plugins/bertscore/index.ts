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
