import type { ItsFunction, WinkMethods } from 'wink-nlp';
import type WinkNlp from 'wink-nlp';
import type WinkModel from 'wink-eng-lite-web-model';
import { at } from '@podium/contracts';

/** A token of an English sentence as wink-nlp reads it, with the spaces before it. */
export interface Token {
  text: string;
  /** Universal Dependencies part of speech (NOUN, VERB, AUX, PROPN, NUM, …). */
  pos: string;
  lemma: string;
  /** wink-nlp token type: word, number, punctuation, currency, symbol, … */
  kind: string;
  /** Whitespace between the previous token and this one. */
  pre: string;
}

let nlp: WinkMethods | undefined;

function engine(): WinkMethods {
  // Loading the model takes ~0.3 s (requiring its packages alone ~0.1 s, which every `podium`
  // command would pay): require and load them once, on first use.
  if (!nlp) {
    const winkNLP = require('wink-nlp') as typeof WinkNlp;
    const model = require('wink-eng-lite-web-model') as typeof WinkModel;
    nlp = winkNLP(model);
  }
  return nlp;
}

/** Tokenises and tags one English sentence or short text (outer whitespace is dropped). */
export function tagEnglish(text: string): Token[] {
  /* eslint-disable @typescript-eslint/unbound-method -- wink-nlp's its.* helpers are plain functions that its typings declare as methods */
  const n = engine();
  const its = n.its;
  const tokens = n.readDoc(text.trim()).tokens();
  const values = tokens.out<string>(its.value);
  const pos = tokens.out<string>(its.pos);
  // wink-nlp's typings give lemma and precedingSpaces other signatures than they have at run time.
  const lemma = tokens.out<string>(its.lemma as unknown as ItsFunction<string>);
  const kind = tokens.out<string>(its.type);
  const pre = tokens.out<string>(its.precedingSpaces as unknown as ItsFunction<string>);
  /* eslint-enable @typescript-eslint/unbound-method */
  return values.map((t, i) => ({ text: t, pos: at(pos, i), lemma: at(lemma, i), kind: at(kind, i), pre: i === 0 ? '' : at(pre, i) }));
}

/** Text of tokens, each preceded by its spaces; `render(tagEnglish(s)) === s.trim()`. */
export function render(tokens: readonly Token[]): string {
  return tokens.map((t, i) => (i === 0 ? '' : t.pre) + t.text).join('');
}

/** Copies `from`'s capitalisation pattern (all caps, initial cap or lower) onto `word`. */
export function matchCase(from: string, word: string): string {
  if (from.length > 1 && from === from.toUpperCase() && from !== from.toLowerCase()) return word.toUpperCase();
  if (from[0] && from[0] === from[0].toUpperCase() && from[0] !== from[0].toLowerCase()) {
    return word.charAt(0).toUpperCase() + word.slice(1);
  }
  return word;
}

/** Whether a token is an alphabetic word (letters, inner hyphens or apostrophes). */
export function isAlphaWord(t: Token): boolean {
  return t.kind === 'word' && /^\p{L}[\p{L}'-]*$/u.test(t.text);
}

/**
 * Whether token `i` stands alone between spaces or punctuation, i.e. is not glued into a
 * hyphenated or otherwise joined word ("year" in "28-year-old" is not).
 */
export function isStandalone(tokens: readonly Token[], i: number): boolean {
  const glue = (t: Token | undefined): boolean => t !== undefined && (t.text === '-' || t.text === '/' || t.kind === 'number' || t.kind === 'word');
  const prevJoined = i > 0 && at(tokens, i).pre === '' && glue(tokens[i - 1]);
  const next = tokens[i + 1];
  const nextJoined = next !== undefined && next.pre === '' && glue(next) && !/^['’]/.test(next.text);
  return !prevJoined && !nextJoined;
}
