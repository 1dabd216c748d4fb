export { DS_FOCUS_PLUGIN, DS_SENT_PLUGIN, dsFocusOptionsSchema, dsSentOptionsSchema, dsFocusPair, dsSentPair, focusEmbeddings, sentenceGraphEmbeddings, tokenSentences, graphEmbedding, wordVectorsFingerprint } from './discoscore.plugin';
export type { DsFocusOptions, DsSentOptions } from './discoscore.plugin';
export { tagText, focusGraph, entityFocusGraph, nounLemmas, sentenceGraph, tokensOfSpan, isFocusWord } from './foci';
export type { TaggedWord } from './foci';
