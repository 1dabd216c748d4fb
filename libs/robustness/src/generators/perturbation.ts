import type { Rng } from '../random';
import type { Token } from './english-nlp';
import type { Vocabulary } from './vocabulary';

/** What a perturber needs besides the sentence: seeded randomness and same-POS words. */
export interface PerturbContext {
  rng: Rng;
  vocabulary: Vocabulary;
}

/** A perturbed sentence and a short description of the one edit made (`"300 → 512"`). */
export interface Perturbation {
  text: string;
  edit: string;
}

/**
 * Applies one phenomenon's edit to a tagged sentence; `null` when the sentence offers no
 * place for it (no number for a number change, no pronoun to swap, …).
 */
export type Perturber = (tokens: readonly Token[], context: PerturbContext) => Perturbation | null;

/** Copy of tokens with the token at `index` replaced by `text` (spacing kept). */
export function replaceToken(tokens: readonly Token[], index: number, text: string): Token[] {
  return tokens.map((t, i) => (i === index ? { ...t, text } : t));
}

/** Indexes of tokens satisfying a predicate. */
export function indexesWhere(tokens: readonly Token[], test: (t: Token, i: number) => boolean): number[] {
  const out: number[] = [];
  tokens.forEach((t, i) => {
    if (test(t, i)) out.push(i);
  });
  return out;
}
