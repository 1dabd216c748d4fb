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
