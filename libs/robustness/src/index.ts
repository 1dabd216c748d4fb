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
export { isStandalone, matchCase, render, tagEnglish } from './generators/english-nlp';
export type { Token } from './generators/english-nlp';
export {
  PERTURBERS,
  PHENOMENA,
  SUPPORTED_GENERATOR_LANGUAGES,
  UnsupportedLanguageError,
  generateSuite,
} from './generators/generate-suite';
export type { GeneratedSuite, Phenomenon, SuiteGenerationInput } from './generators/generate-suite';
export { FIRST_NAMES, nameSwap } from './generators/name-swap';
export { negation } from './generators/negation';
export { numberChange, randomNumberLike } from './generators/number-change';
export { NUMBER_PATTERN, numberToWords, spellOutNumbers } from './generators/number-words';
export type { PerturbContext, Perturbation, Perturber } from './generators/perturbation';
export { pronounSwap } from './generators/pronoun-swap';
export { buildVocabulary, inflectionOf } from './generators/vocabulary';
export type { OpenClass, Vocabulary, WordForm } from './generators/vocabulary';
export { addition, mismatch, omission, subjectVerbDisagreement, typo, wordShuffle } from './generators/word-edits';
export { kendallTauB, pearson } from './correlation';
export { alignJudgements, metaEvaluate, reportCard } from './report-card';
export type { AlignedJudgements, MetaEvaluation, MetaEvaluationInput, ReportCard } from './report-card';
export { TRADEOFF_WEIGHTS, tradeoffCurve } from './combined-metric';
export type { JudgedScores, SuiteScores, TradeoffPoint } from './combined-metric';
