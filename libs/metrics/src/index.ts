/**
 * @podium/metrics — text-generation metrics as plugins, one folder each under `plugins/`
 * (ADR 0022): BLEU, chrF, chrF++ and TER reproducing sacreBLEU 2.x; ROUGE as Google's
 * rouge-score; the NLI metric's definition (its model runtime is injected by the host); the
 * combined metric. Pure TypeScript: no Node I/O.
 */
export { PODIUM_METRICS_VERSION } from './version';
export { MetricInputError } from './errors';
export {
  isComputedPlugin,
  isEmbeddingPlugin,
  kindOfCapability,
  type ComputedMetricPlugin,
  type ConformanceCase,
  type DerivedMetricPlugin,
  type MetricCapability,
  type MetricDefinition,
  type MetricKind,
  type MetricPlugin,
  type ModelMetricPlugin,
} from './plugin';
export {
  MetricOptionError,
  CONFIGURABLE_METRIC_NAMES,
  configurableMetricNames,
  type ConfigurableMetricName,
  createMetricRegistry,
  metricDefinition,
  metricHigherIsBetter,
  UNKNOWN_METRIC_HIGHER_IS_BETTER,
  metricPlugin,
  metricPlugins,
  requireMetricDefinition,
  requireMetricPlugin,
  registeredMetrics,
  validateMetricOptions,
  parseOptionsWith,
  optionNames,
  type MetricRegistry,
} from './registry';
export { COMPUTED_METRIC_PLUGINS, EMBEDDING_METRIC_PLUGINS, METRIC_PLUGINS } from './plugins';
export { conformanceChecks, type ConformanceCheck, type ModelRuntimeForConformance } from './conformance';
export {
  METRIC_NAMES,
  isMetricName,
  getMetric,
  score,
  scoreWithStats,
  scoreWithFlatStats,
  scoreWithFlatStatsInSlices,
  metricInfo,
  parseMetricOptions,
  sumStats,
  validateStreams,
  type Metric,
  type MetricName,
  type MetricOptions,
  type MetricScore,
  type StatsMatrix,
} from './metric';
export {
  BLEU_TOKENIZERS,
  isBleuTokenizerName,
  getBleuTokenizer,
  getBleuTokenSplitter,
  tokenize13a,
  tokenizeIntl,
  tokenizeZh,
  tokenizeChar,
  tokenizeNone,
  tokenizeRegexp,
  isZhChar,
  type BleuTokenizerName,
} from './tokenizers';
export {
  BLEU_PLUGIN,
  BLEU_SMOOTH_METHODS,
  bleuFromStats,
  bleuStats,
  bleuStatsFromTokens,
  bleuTokens,
  closestRefLength,
  resolveBleuConfig,
  type BleuConfig,
  type BleuSmoothMethod,
} from './plugins/bleu';
export { CHRF_PLUGIN, CHRF_PLUS_PLUS_PLUGIN, chrfFromStats, chrfStats, chrfWords, resolveChrfConfig, type ChrfConfig } from './plugins/chrf';
export { TER_PLUGIN, terEdits, terFromStats, terStats, terTokens, resolveTerConfig, type TerConfig } from './plugins/ter';
export {
  ROUGE1_PLUGIN,
  ROUGE2_PLUGIN,
  ROUGEL_PLUGIN,
  ROUGELSUM_PLUGIN,
  rougeScore,
  rougeStats,
  rougeTokens,
  rougeN,
  rougeL,
  rougeLsum,
  porterStem,
  resolveRougeConfig,
  type RougeConfig,
  type RougePrf,
  type RougeType,
} from './plugins/rouge';
export { NLI_DIRECTIONS, NLI_FORMULAS, NLI_METRIC_DEFINITION, NLI_PLUGIN, nliOptionsSchema } from './plugins/nli';
export {
  COMBINED_METRIC_DEFINITION,
  COMBINED_PLUGIN,
  DEFAULT_COMBINE_WEIGHT,
  combineScores,
  combineWeightFor,
  combinedCorpus,
  combinedRole,
  combinedSignature,
  minMaxScale,
  type CombineOptions,
  type CombinedScores,
  type CombinedSignatureParts,
} from './plugins/combined';
export { pySplit, pyStrip, pyRstrip } from './text';
export type {
  EmbeddedInstance,
  EmbeddedText,
  EmbeddingInstanceScore,
  EmbeddingMetricPlugin,
  EmbeddingConformanceCase,
  EmbeddingHostFile,
  EncoderIdentity,
  TokenizedCorpus,
  TokenizedText,
} from './embedding';
// The MoverScore family (#24): exact transport and the embedding metrics computed from vectors.
export { earthMoversDistance, type TransportOptions, type TransportSolution } from './transport';
export { runEmbeddingMetric, IdfTable } from './plugins/embedding-common/common';
export { MOVERSCORE_PLUGIN, moverScoreOptionsSchema, type MoverScoreOptions } from './plugins/moverscore';
export {
  XMOVERSCORE_PLUGIN,
  xMoverScoreOptionsSchema,
  parseXMoverMapping,
  formatXMoverMapping,
  fitXMoverMapping,
  parseNpy,
  decodeXMoverMapping,
  resolveXMoverMapping,
  XMOVER_MAPPING_DATASET,
  xMoverMappingPath,
  type FittedXMoverMapping,
  type XMoverMappingKind,
  type XMoverScoreOptions,
} from './plugins/xmoverscore';
export { DS_FOCUS_PLUGIN, DS_SENT_PLUGIN, dsFocusOptionsSchema, dsSentOptionsSchema, entityFocusGraph, nounLemmas } from './plugins/discoscore';
export { tokenizedCorpusOf } from './embedding';
export {
  BERTSCORE_BASELINE_DATASET,
  BERTSCORE_MODEL_LAYERS,
  BERTSCORE_PLUGIN,
  bertScoreBaselinePath,
  bertScoreDefaultModel,
  bertScoreLayer,
  bertScoreOptionsSchema,
  bestOver,
  greedyMatch,
  idfFromReferences,
  parseBaseline,
  rescale,
  tokenWeights,
  type BertScoreBaseline,
  type BertScoreOptions,
  type BertScorePRF,
  type IdfTable as BertScoreIdfTable,
} from './plugins/bertscore';
