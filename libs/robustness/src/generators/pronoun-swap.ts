import { matchCase, render } from './english-nlp';
import { indexesWhere, replaceToken } from './perturbation';
import type { Perturber } from './perturbation';
import { at } from '@podium/contracts';

// Swaps that keep the sentence grammatical (MENLI M:268–270: "he" to "she", "us" to "them").
const SWAP: Record<string, string> = {
  he: 'she', she: 'he', him: 'her', his: 'her', himself: 'herself', herself: 'himself',
  we: 'they', they: 'we', us: 'them', them: 'us', our: 'their', their: 'our',
  ours: 'theirs', theirs: 'ours', ourselves: 'themselves', themselves: 'ourselves',
};

/**
 * Pronoun error: one personal or possessive pronoun swapped for its counterpart of the
 * other gender or person. "her" becomes "his" before a noun phrase (determiner use) and
 * "him" otherwise.
 */
export const pronounSwap: Perturber = (tokens, { rng }) => {
  const candidates = indexesWhere(tokens, (t) => {
    const w = t.text.toLowerCase();
    return (t.pos === 'PRON' || t.pos === 'DET') && (w in SWAP || w === 'her');
  });
  if (candidates.length === 0) return null;
  const i = rng.pick(candidates);
  const w = at(tokens, i).text.toLowerCase();
  let to = SWAP[w];
  if (w === 'her') {
    const next = tokens[i + 1];
    to = next && ['NOUN', 'ADJ', 'PROPN', 'NUM'].includes(next.pos) ? 'his' : 'him';
  }
  if (to === undefined) return null; // candidates are SWAP's words and "her"
  const replacement = matchCase(at(tokens, i).text, to);
  return { text: render(replaceToken(tokens, i, replacement)), edit: `${at(tokens, i).text} → ${replacement}` };
};
