import { isAlphaWord, isStandalone, matchCase, render } from './english-nlp';
import { indexesWhere, replaceToken } from './perturbation';
import type { Perturber } from './perturbation';
import { inflectionOf } from './vocabulary';
import type { OpenClass } from './vocabulary';
import { at } from '@podium/contracts';

/**
 * Addition (MENLI M:247–249): after a random common noun, "and" plus another noun of the
 * same number from the vocabulary ("I love dogs" → "I love dogs and cats"). Only the last
 * noun of a compound is extended so "gold prices" becomes "gold prices and X".
 */
export const addition: Perturber = (tokens, { rng, vocabulary }) => {
  const candidates = indexesWhere(
    tokens,
    (t, i) => t.pos === 'NOUN' && isAlphaWord(t) && isStandalone(tokens, i) && tokens[i + 1]?.pos !== 'NOUN' && tokens[i + 1]?.text.toLowerCase() !== 'and',
  );
  if (candidates.length === 0) return null;
  const i = rng.pick(candidates);
  const form = inflectionOf('NOUN', at(tokens, i).text, at(tokens, i).lemma);
  const present = new Set(tokens.map((t) => t.lemma));
  const pool = vocabulary.NOUN.filter((w) => w.form === form && !present.has(w.lemma));
  if (pool.length === 0) return null;
  const added = rng.pick(pool).text;
  const out = [...tokens];
  out.splice(
    i + 1,
    0,
    { text: 'and', pos: 'CCONJ', lemma: 'and', kind: 'word', pre: ' ' },
    { text: added, pos: 'NOUN', lemma: added, kind: 'word', pre: ' ' },
  );
  return { text: render(out), edit: `${at(tokens, i).text} → ${at(tokens, i).text} and ${added}` };
};

/**
 * Omission (MENLI M:250–251, after Sai et al. 2021): drops between 1 word and 20% of the
 * droppable words, chosen at random; punctuation and pieces of contractions, possessives
 * and hyphenated words are kept.
 */
export const omission: Perturber = (tokens, { rng }) => {
  // Whole words only: dropping "ca" from "can't" or "John" from "John's" would leave a fragment.
  const words = indexesWhere(
    tokens,
    (t, i) => t.kind !== 'punctuation' && isStandalone(tokens, i) && !/^['’]/.test(tokens[i + 1]?.pre === '' ? at(tokens, i + 1).text : ''),
  );
  if (words.length < 2) return null;
  const count = 1 + rng.int(Math.max(1, Math.floor(words.length * 0.2)));
  const dropped = new Set<number>();
  while (dropped.size < count) dropped.add(at(words, rng.int(words.length)));
  const kept = tokens.filter((_, i) => !dropped.has(i));
  const edit = [...dropped].sort((a, b) => a - b).map((i) => `-${at(tokens, i).text}`).join(' ');
  return { text: render(kept), edit };
};

/**
 * Mismatch (MENLI M:252–260): one noun, verb or adjective replaced with another word of
 * the same part of speech and inflection (plural noun for plural noun, -ing for -ing, …).
 */
export function mismatch(pos: OpenClass): Perturber {
  return (tokens, { rng, vocabulary }) => {
    const candidates = indexesWhere(tokens, (t, k) => t.pos === pos && isAlphaWord(t) && isStandalone(tokens, k) && t.text.length >= 3);
    if (candidates.length === 0) return null;
    const i = rng.pick(candidates);
    const t = at(tokens, i);
    const form = inflectionOf(pos, t.text, t.lemma);
    const pool = vocabulary[pos].filter((w) => w.form === form && w.lemma !== t.lemma.toLowerCase());
    if (pool.length === 0) return null;
    const replacement = matchCase(t.text, rng.pick(pool).text);
    return { text: render(replaceToken(tokens, i, replacement)), edit: `${t.text} → ${replacement}` };
  };
}

/**
 * Jumbled word order (fluency, Sai et al. 2021): the whitespace-separated words before the
 * final punctuation token are shuffled (Fisher–Yates) and joined by single spaces; a
 * shuffle that changes nothing is retried.
 */
export const wordShuffle: Perturber = (tokens, { rng }) => {
  const last = tokens[tokens.length - 1];
  const hasFinal = last !== undefined && last.kind === 'punctuation' && last.pre === '';
  const body = render(hasFinal ? tokens.slice(0, -1) : tokens).split(/\s+/).filter(Boolean);
  if (new Set(body).size < 2) return null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const order = body.map((_, k) => k);
    for (let k = order.length - 1; k > 0; k--) {
      const j = rng.int(k + 1);
      [order[k], order[j]] = [at(order, j), at(order, k)];
    }
    const shuffled = order.map((k) => body[k]);
    if (shuffled.join(' ') === body.join(' ')) continue;
    return { text: shuffled.join(' ') + (hasFinal ? last.text : ''), edit: 'shuffled word order' };
  }
  return null;
};

/**
 * Spelling error (fluency): one word of 4+ letters gets one typo — two adjacent inner
 * letters swapped, one inner letter dropped, or one letter doubled.
 */
export const typo: Perturber = (tokens, { rng }) => {
  const candidates = indexesWhere(tokens, (t, k) => isAlphaWord(t) && isStandalone(tokens, k) && /^\p{L}{4,}$/u.test(t.text));
  if (candidates.length === 0) return null;
  const i = rng.pick(candidates);
  const w = at(tokens, i).text;
  let out = w;
  for (let attempt = 0; attempt < 10 && out === w; attempt++) {
    // Inner positions only, so the first and last letters stay.
    const kind = rng.int(3);
    if (kind === 0) {
      const k = 1 + rng.int(w.length - 3);
      out = w.slice(0, k) + w.charAt(k + 1) + w.charAt(k) + w.slice(k + 2);
    } else {
      const k = 1 + rng.int(w.length - 2);
      out = kind === 1 ? w.slice(0, k) + w.slice(k + 1) : w.slice(0, k) + w.charAt(k) + w.slice(k);
    }
  }
  if (out === w) return null;
  return { text: render(replaceToken(tokens, i, out)), edit: `${w} → ${out}` };
};

const AGREEMENT_SWAP: Record<string, string> = {
  is: 'are', are: 'is', was: 'were', were: 'was', has: 'have', have: 'has', does: 'do', do: 'does',
};

/**
 * Subject–verb disagreement (fluency, "He like animals."): the first finite present or
 * past "be"/"have"/"do" is switched between singular and plural, or else a present-tense
 * lexical verb loses or gains its third-person -s.
 */
export const subjectVerbDisagreement: Perturber = (tokens) => {
  for (let i = 0; i < tokens.length; i++) {
    const t = at(tokens, i);
    const w = t.text.toLowerCase();
    const prev = tokens[i - 1];
    const nonFinite = prev && (prev.text.toLowerCase() === 'to' || (prev.pos === 'AUX' && prev.lemma !== 'do'));
    if (nonFinite) continue;
    if ((t.pos === 'AUX' || t.pos === 'VERB') && AGREEMENT_SWAP[w]) {
      // "I have" / "you have" / "I was" have no singular-plural counterpart that would be an error of agreement alone.
      if (prev && ['i', 'you'].includes(prev.text.toLowerCase())) continue;
      const replacement = matchCase(t.text, AGREEMENT_SWAP[w]);
      return { text: render(replaceToken(tokens, i, replacement)), edit: `${t.text} → ${replacement}` };
    }
    if (t.pos === 'VERB' && /^\p{Ll}+$/u.test(t.text) && prev && ['NOUN', 'PROPN', 'PRON'].includes(prev.pos)) {
      const form = inflectionOf('VERB', t.text, t.lemma);
      if (form === '3sg') {
        return { text: render(replaceToken(tokens, i, t.lemma)), edit: `${t.text} → ${t.lemma}` };
      }
      if (form === 'base' && !['i', 'you'].includes(prev.text.toLowerCase())) {
        const s = /(s|sh|ch|x|z|o)$/.test(t.lemma) ? `${t.lemma}es` : /[^aeiou]y$/.test(t.lemma) ? `${t.lemma.slice(0, -1)}ies` : `${t.lemma}s`;
        return { text: render(replaceToken(tokens, i, s)), edit: `${t.text} → ${s}` };
      }
    }
  }
  return null;
};
