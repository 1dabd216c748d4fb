import { isAlphaWord } from './english-nlp';
import type { Token } from './english-nlp';

/** Parts of speech the mismatch and addition attacks draw replacements for. */
export type OpenClass = 'NOUN' | 'VERB' | 'ADJ';

/** A word with its lemma and inflection class, e.g. `{ text: 'prices', lemma: 'price', form: 'plural' }`. */
export interface WordForm {
  text: string;
  lemma: string;
  form: string;
}

/** Same-POS replacement words, grouped by part of speech. */
export type Vocabulary = Record<OpenClass, WordForm[]>;

/**
 * Inflection class of a noun, verb or adjective from its surface form and lemma, so a
 * replacement keeps the grammar: nouns `singular|plural`; verbs `base|3sg|ing|past`;
 * adjectives `base|comparative|superlative`.
 */
export function inflectionOf(pos: OpenClass, text: string, lemma: string): string {
  const w = text.toLowerCase();
  if (pos === 'NOUN') return w !== lemma && w.endsWith('s') ? 'plural' : 'singular';
  if (pos === 'ADJ') {
    if (w === lemma) return 'base';
    return w.endsWith('est') ? 'superlative' : w.endsWith('er') ? 'comparative' : 'base';
  }
  if (w === lemma) return 'base';
  if (w.endsWith('ing')) return 'ing';
  if (w === `${lemma}s` || w === `${lemma}es` || (lemma.endsWith('y') && w === `${lemma.slice(0, -1)}ies`)) return '3sg';
  return 'past';
}

// Used when a task's references are too few to draw replacements from.
const FALLBACK: Record<OpenClass, string[]> = {
  NOUN: 'house city report market river doctor decision engine garden window question teacher museum vaccine village houses cities reports markets rivers doctors decisions engines gardens windows questions teachers museums vaccines villages'.split(' '),
  VERB: 'build open sell explain carry follow reject builds opens sells explains carries follows rejects building opening selling explaining carrying following rejecting built opened sold explained carried followed rejected'.split(' '),
  ADJ: 'green quiet ancient brave narrow expensive rural famous angry modern'.split(' '),
};

const FALLBACK_LEMMA: Record<string, string> = {
  houses: 'house', cities: 'city', reports: 'report', markets: 'market', rivers: 'river', doctors: 'doctor',
  decisions: 'decision', engines: 'engine', gardens: 'garden', windows: 'window', questions: 'question',
  teachers: 'teacher', museums: 'museum', vaccines: 'vaccine', villages: 'village',
  builds: 'build', opens: 'open', sells: 'sell', explains: 'explain', carries: 'carry', follows: 'follow',
  rejects: 'reject', building: 'build', opening: 'open', selling: 'sell', explaining: 'explain',
  carrying: 'carry', following: 'follow', rejecting: 'reject', built: 'build', opened: 'open', sold: 'sell',
  explained: 'explain', carried: 'carry', followed: 'follow', rejected: 'reject',
};

/**
 * Collects lower-case nouns, verbs and adjectives (alphabetic, 3+ letters) from tagged
 * sentences, deduplicated and in first-seen order, topped up with a small built-in list so
 * that every inflection class has candidates.
 */
export function buildVocabulary(sentences: readonly (readonly Token[])[]): Vocabulary {
  const vocab: Vocabulary = { NOUN: [], VERB: [], ADJ: [] };
  const seen = new Set<string>();
  const add = (pos: OpenClass, text: string, lemma: string): void => {
    const key = `${pos}:${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    vocab[pos].push({ text, lemma, form: inflectionOf(pos, text, lemma) });
  };
  for (const tokens of sentences) {
    for (const t of tokens) {
      if ((t.pos === 'NOUN' || t.pos === 'VERB' || t.pos === 'ADJ') && isAlphaWord(t) && t.text.length >= 3) {
        add(t.pos, t.text.toLowerCase(), t.lemma.toLowerCase());
      }
    }
  }
  for (const pos of ['NOUN', 'VERB', 'ADJ'] as const) {
    for (const w of FALLBACK[pos]) add(pos, w, FALLBACK_LEMMA[w] ?? w);
  }
  return vocab;
}
