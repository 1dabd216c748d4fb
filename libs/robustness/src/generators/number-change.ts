import { render } from './english-nlp';
import { NUMBER_PATTERN } from './number-words';
import { indexesWhere, replaceToken } from './perturbation';
import type { Perturber } from './perturbation';
import type { Rng } from '../random';
import { at } from '@podium/contracts';

/**
 * A different random number in the same format as `digits`: same count of integer digits
 * (no new leading zero), same decimals, thousands separators where the original had them.
 */
export function randomNumberLike(digits: string, rng: Rng): string {
  const grouped = digits.includes(',');
  const [intPart = '', frac] = digits.replace(/,/g, '').split('.'); // split returns at least one part
  for (let attempt = 0; attempt < 50; attempt++) {
    let int = '';
    for (let k = 0; k < intPart.length; k++) int += String(k === 0 && intPart.length > 1 ? 1 + rng.int(9) : rng.int(10));
    if (grouped) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    let out = int;
    if (frac !== undefined) {
      out += '.';
      for (let k = 0; k < frac.length; k++) out += String(rng.int(10));
    }
    if (out !== digits) return out;
  }
  // Only reachable for one-digit numbers with an unlucky stream; shift deterministically.
  return String((Number(digits) + 1) % 10);
}

/** Number error (MENLI M:264–267): one number replaced by a random one in the same format. */
export const numberChange: Perturber = (tokens, { rng }) => {
  const candidates = indexesWhere(tokens, (t) => t.kind === 'number' && NUMBER_PATTERN.test(t.text));
  if (candidates.length === 0) return null;
  const i = rng.pick(candidates);
  const replacement = randomNumberLike(at(tokens, i).text, rng);
  return { text: render(replaceToken(tokens, i, replacement)), edit: `${at(tokens, i).text} → ${replacement}` };
};
