import { matchCase, render } from './english-nlp';
import type { Token } from './english-nlp';
import type { Perturber } from './perturbation';
import { inflectionOf } from './vocabulary';
import { at } from '@podium/contracts';

// Clitic hosts whose form changes when "n't" goes: "won't" → "will", "can't" → "can".
const CLITIC_HOST: Record<string, string> = { wo: 'will', ca: 'can', sha: 'shall', ai: 'is' };
const AUX_TAKING_NOT = new Set(['be', 'have', 'will', 'would', 'can', 'could', 'shall', 'should', 'may', 'might', 'must', 'do']);

function isNot(t: Token): boolean {
  return t.lemma === 'not' && (t.text.toLowerCase() === 'not' || t.text.toLowerCase() === "n't" || t.text.toLowerCase() === 'n’t');
}

/** Removes the first "not"/"n't" after an auxiliary, restoring the host of a contraction. */
function removeNegation(tokens: readonly Token[]): { text: string; edit: string } | null {
  const i = tokens.findIndex((t, k) => k > 0 && isNot(t) && at(tokens, k - 1).pos === 'AUX');
  if (i < 0) return null;
  const out = tokens.map((t) => ({ ...t }));
  const host = at(out, i - 1);
  const before = `${host.text}${at(out, i).pre}${at(out, i).text}`;
  const clitic = CLITIC_HOST[host.text.toLowerCase()];
  if (clitic) host.text = matchCase(host.text, clitic);
  out.splice(i, 1);
  return { text: render(out), edit: `${before} → ${host.text}` };
}

/**
 * Adds "not" to the first finite verb: after an auxiliary or modal ("will remain" → "will
 * not remain", "is weak" → "is not weak"), or with do-support on a lexical verb ("likes" →
 * "does not like", "grew" → "did not grow"), as CheckList's add_negation does for the root.
 */
function addNegation(tokens: readonly Token[]): { text: string; edit: string } | null {
  // Auxiliaries first: in "The body found at the mall was identified" the finite verb is "was".
  for (let i = 0; i < tokens.length; i++) {
    const t = at(tokens, i);
    const next = tokens[i + 1];
    if (t.pos === 'AUX' && AUX_TAKING_NOT.has(t.lemma) && next && next.pre !== '' && !isNot(next)) {
      // "to be" / "to have" are not finite; skip infinitives.
      if (tokens[i - 1]?.text.toLowerCase() === 'to') continue;
      const out = tokens.map((x) => ({ ...x }));
      out.splice(i + 1, 0, { text: 'not', pos: 'PART', lemma: 'not', kind: 'word', pre: ' ' });
      return { text: render(out), edit: `${t.text} → ${t.text} not` };
    }
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = at(tokens, i);
    if (t.pos === 'VERB' && /^\p{Ll}+$/u.test(t.text)) {
      const prev = tokens[i - 1];
      if (prev && (prev.pos === 'AUX' || prev.pos === 'PART' || prev.text.toLowerCase() === 'to')) continue;
      const form = inflectionOf('VERB', t.text, t.lemma);
      if (form === 'ing') continue;
      const doForm = form === '3sg' ? 'does' : form === 'past' ? 'did' : 'do';
      // A base form right after a noun or pronoun is a present verb; elsewhere it may be an imperative or noun-like use.
      if (form === 'base' && !(prev && (prev.pos === 'PRON' || prev.pos === 'NOUN' || prev.pos === 'PROPN'))) continue;
      const out = tokens.map((x) => ({ ...x }));
      out[i] = { ...t, text: t.lemma };
      out.splice(i, 0, { text: doForm, pos: 'AUX', lemma: 'do', kind: 'word', pre: t.pre }, { text: 'not', pos: 'PART', lemma: 'not', kind: 'word', pre: ' ' });
      at(out, i + 2).pre = ' ';
      return { text: render(out), edit: `${t.text} → ${doForm} not ${t.lemma}` };
    }
  }
  return null;
}

/**
 * Negation (MENLI M:261–263): removes the sentence's negation when it has one, otherwise
 * negates its first finite verb. Deterministic: the sentence decides which direction.
 */
export const negation: Perturber = (tokens) => removeNegation(tokens) ?? addNegation(tokens);
