import { render } from './english-nlp';
import { indexesWhere, replaceToken } from './perturbation';
import type { Perturber } from './perturbation';
import { at } from '@podium/contracts';

/** Common English first names by gender, the pool CheckList-style name swaps draw from. */
export const FIRST_NAMES = {
  female: 'Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Nancy Lisa Margaret Sandra Ashley Emily Donna Michelle Carol Amanda Melissa Deborah Laura Rebecca Sharon Helen Anna Angela Hillary Theresa Catherine Christine Marie Julia Emma'.split(' '),
  male: 'James John Robert Michael William David Richard Joseph Thomas Charles Christopher Daniel Matthew Anthony Donald Mark Paul Steven Andrew Kenneth George Joshua Kevin Brian Edward Barack Vladimir Boris Emmanuel Peter Frank Henry Jack Martin Alexander'.split(' '),
} as const;

const GENDER = new Map<string, 'female' | 'male'>();
for (const g of ['female', 'male'] as const) for (const n of FIRST_NAMES[g]) GENDER.set(n, g);

/**
 * Name error (MENLI M:271–274): exactly one known first name (a proper noun in
 * {@link FIRST_NAMES}) replaced with a different random name of the same gender.
 */
export const nameSwap: Perturber = (tokens, { rng }) => {
  const candidates = indexesWhere(tokens, (t) => t.pos === 'PROPN' && GENDER.has(t.text));
  if (candidates.length === 0) return null;
  const i = rng.pick(candidates);
  const gender = GENDER.get(at(tokens, i).text) as 'female' | 'male';
  const present = new Set(tokens.map((t) => t.text));
  const pool = FIRST_NAMES[gender].filter((n) => !present.has(n));
  const replacement = rng.pick(pool);
  return { text: render(replaceToken(tokens, i, replacement)), edit: `${at(tokens, i).text} → ${replacement}` };
};
