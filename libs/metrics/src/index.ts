/**
 * @podium/metrics — classical text-generation metrics reproducing their reference
 * implementations: BLEU, chrF, chrF++ and TER as sacreBLEU 2.x; ROUGE as Google's
 * rouge-score. Pure TypeScript: no Node I/O.
 */
export { PODIUM_METRICS_VERSION } from './version';
export { MetricInputError } from './errors';
export {
  MetricOptionError,
  registerMetric,
  metricDefinition,
  requireMetricDefinition,
  registeredMetrics,
  validateMetricOptions,
  optionNames,
  type MetricDefinition,
  type MetricKind,
} from './registry';
export {
  METRIC_NAMES,
  isMetricName,
  getMetric,
  score,
  scoreWithStats,
  metricInfo,
  parseMetricOptions,
  sumStats,
  validateStreams,
  type Metric,
  type MetricName,
  type MetricOptions,
  type MetricScore,
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
  BLEU_SMOOTH_METHODS,
  bleuFromStats,
  bleuStats,
  bleuStatsFromTokens,
  bleuTokens,
  closestRefLength,
  resolveBleuConfig,
  type BleuConfig,
  type BleuSmoothMethod,
} from './bleu';
export { chrfFromStats, chrfStats, chrfWords, resolveChrfConfig, type ChrfConfig } from './chrf';
export { terEdits, terFromStats, terStats, terTokens, resolveTerConfig, type TerConfig } from './ter';
export {
  rougeScore,
  rougeStats,
  rougeTokens,
  rougeN,
  rougeL,
  rougeLsum,
  resolveRougeConfig,
  type RougeConfig,
  type RougePrf,
  type RougeType,
} from './rouge';
export { porterStem } from './porter-stemmer';
export { pySplit, pyStrip, pyRstrip } from './text';
