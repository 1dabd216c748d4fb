export { labelIndex, type NliLabelIndex } from './labels';
export {
  MODEL_FILES,
  defaultManifestPath,
  expectedChecksums,
  lockPathFor,
  readLock,
  readManifest,
  sha256File,
  verifyModelDir,
  type ModelLock,
  type ModelManifest,
  type ModelManifestEntry,
  type ModelVerification,
} from './manifest';
export {
  createSession,
  loadNliModel,
  maxLengthOf,
  onnxRuntime,
  readJson,
  softmax,
  type ModelConfig,
  type ExecutionProvider,
  type LoadNliModelOptions,
  type NliModel,
  type NliPair,
  type NliPredictOptions,
  type NliProbs,
} from './nli-model';
export { PairTokenizer, longestFirstLengths, type EncodedPair } from './pair-tokenizer';
export {
  NLI_METRIC_VERSION,
  applyFormula,
  defaultNliOptions,
  directionMode,
  formulaRange,
  nliSignature,
  scoreNli,
  sentenceWindows,
  splitSentences,
  type NliDirection,
  type NliFormula,
  type NliLongPremise,
  type NliMetricOptions,
  type NliRefsAggregation,
  type NliScoreInput,
  type NliScoreResult,
  type NliTaskKind,
} from './nli-metric';
export { fetchCommand, nliAvailability, type NliAvailability } from './availability';
export {
  DEFAULT_HF_ENDPOINT,
  fetchModel,
  listModels,
  type FetchModelOptions,
  type FetchModelResult,
  type ModelListing,
} from './model-fetch';
export {
  NLI_CLASSES,
  checkLabelOrder,
  confusionMatrix,
  predictedClass,
  supportedId2label,
  type ConfusionMatrix,
  type LabelOrderCheck,
  type NliClass,
} from './label-check';
