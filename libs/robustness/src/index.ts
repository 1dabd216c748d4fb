export { CsvSyntaxError, formatCsv, parseCsv } from './csv';
export { MENLI_COLUMNS, MenliSuiteError, formatMenliCsv, parseMenliCsv } from './menli-suite';
export type { MenliRow } from './menli-suite';
export {
  DEFAULT_BOOTSTRAP_SEED,
  menliPreferenceRows,
  preferenceReport,
  prefersGood,
  runPreferenceTest,
} from './preference-test';
export type {
  AccuracyEstimate,
  FailingRow,
  PairScorer,
  PairScores,
  PreferenceOptions,
  PreferenceReport,
  PreferenceRow,
  SuiteMode,
} from './preference-test';
export { createRng, deriveSeed, quantileSorted } from './random';
export type { Rng } from './random';
