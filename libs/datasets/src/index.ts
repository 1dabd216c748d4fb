export {
  BUILTIN_SUITES,
  datasetBytes,
  DEMO_DATASET,
  getDataset,
  licenceNote,
  listDatasets,
  parseRegistry,
  REGISTRY,
  UnknownDatasetError,
  UPSTREAM_BASE,
} from './registry';
export type { Dataset, DatasetFileSpec, DatasetRegistry, DatasetUpstream, NliSetSpec, SuiteSpec, WmtTestSetSpec } from './registry';
export { loadNliSet, parseSick, type LoadedNliSet, type NliExample, type NliGoldLabel } from './nli-set';
export {
  cachedFilePath,
  dataSourceFromEnv,
  datasetsCacheDir,
  defaultCacheDir,
  describeSource,
  parseDataMirror,
  sourceLocation,
  upstreamKey,
} from './locations';
export type { DataSource } from './locations';
export { describeFetchError, downloadResumable, HttpStatusError } from './download';
export type { DownloadOptions } from './download';
export {
  ChecksumMismatchError,
  DataFetchError,
  datasetCacheStatus,
  datasetFilePath,
  fetchDataset,
  fetchDatasetEntry,
  MIRROR_HINT,
  pinsPath,
  readPins,
  sha256File,
} from './fetch-dataset';
export type { DataOptions, DatasetCacheStatus, FetchedDataset, FetchedFile } from './fetch-dataset';
export { buildWmtTestSet, loadWmtTestSet } from './wmt-test-set';
export type { WmtTestSet } from './wmt-test-set';
export { suiteFile } from './suites';
export { parseDaSegLevel, type DaJudgement } from './da-scores';
