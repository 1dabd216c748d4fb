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
  loadNliModel,
  softmax,
  type ExecutionProvider,
  type LoadNliModelOptions,
  type NliModel,
  type NliPair,
  type NliPredictOptions,
  type NliProbs,
} from './nli-model';
export { PairTokenizer, longestFirstLengths, type EncodedPair } from './pair-tokenizer';
