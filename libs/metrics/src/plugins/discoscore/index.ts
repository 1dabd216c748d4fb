import type { MetricFolder } from '../../plugin';
import { DS_FOCUS_PLUGIN, DS_SENT_PLUGIN } from './discoscore.plugin';

export { DS_FOCUS_PLUGIN, DS_SENT_PLUGIN, dsFocusOptionsSchema, dsSentOptionsSchema, dsFocusPair, dsSentPair, focusEmbeddings, sentenceGraphEmbeddings, tokenSentences, graphEmbedding, wordVectorsFingerprint } from './discoscore.plugin';
export type { DsFocusOptions, DsSentOptions } from './discoscore.plugin';
export { tagText, focusGraph, entityFocusGraph, nounLemmas, sentenceGraph, tokensOfSpan, isFocusWord } from './foci';
export type { TaggedWord } from './foci';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 90, plugins: [DS_FOCUS_PLUGIN, DS_SENT_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    discoscore: typeof METRIC_FOLDER;
  }
}
