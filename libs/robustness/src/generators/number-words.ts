import type { Token } from './english-nlp';
import { at } from '@podium/contracts';

const ONES = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' ');
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion'];

function underThousand(n: number): string {
  const parts: string[] = [];
  if (n >= 100) {
    parts.push(`${ONES[Math.floor(n / 100)]} hundred`);
    n %= 100;
  }
  if (n >= 20) parts.push(at(TENS, Math.floor(n / 10)) + (n % 10 ? `-${ONES[n % 10]}` : ''));
  else if (n > 0) parts.push(at(ONES, n));
  return parts.join(' ');
}

/** Matches the digit formats the number attacks handle: `42`, `3.5`, `1,250`, `2,000.75`. */
export const NUMBER_PATTERN = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;

/**
 * English words for a non-negative number written in digits — the paraphrase MENLI uses for
 * the number phenomenon (num2words, M:394–398). Unlike num2words there is no "and" or comma:
 * `1,250` → "one thousand two hundred fifty"; decimals go digit by digit: `3.05` → "three
 * point zero five". Returns `null` for other formats and above 999 trillion.
 */
export function numberToWords(digits: string): string | null {
  if (!NUMBER_PATTERN.test(digits)) return null;
  const [intPart = '', frac] = digits.replace(/,/g, '').split('.'); // split returns at least one part
  if (intPart.length > 15) return null;
  let n = Number(intPart);
  let words: string;
  if (n === 0) words = 'zero';
  else {
    const groups: string[] = [];
    for (let s = 0; n > 0; s++, n = Math.floor(n / 1000)) {
      const g = n % 1000;
      if (g) groups.unshift(underThousand(g) + (SCALES[s] ? ` ${SCALES[s]}` : ''));
    }
    words = groups.join(' ');
  }
  if (frac !== undefined) words += ' point ' + Array.from(frac, (d) => ONES[Number(d)]).join(' ');
  return words;
}

const CURRENCY: Record<string, string> = { $: 'dollars', '€': 'euros', '£': 'pounds' };
const SCALE_WORDS = new Set(['thousand', 'million', 'billion', 'trillion']);

/**
 * Spells out every digit number of a tagged sentence ("$100 billion" → "one hundred billion
 * dollars", "300%" → "three hundred percent"); `null` when the sentence has no such number.
 */
export function spellOutNumbers(tokens: readonly Token[]): string | null {
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = at(tokens, i);
    const pre = out.length === 0 ? '' : t.pre;
    const words = t.kind === 'number' ? numberToWords(t.text) : null;
    if (words === null) {
      if (CURRENCY[t.text] && tokens[i + 1]?.kind === 'number' && numberToWords(at(tokens, i + 1).text) !== null) {
        // "$100 billion": the number comes next, the currency word after its scale word.
        const num = at(tokens, i + 1);
        let text = numberToWords(num.text) as string;
        let j = i + 1;
        if (tokens[j + 1] && SCALE_WORDS.has(at(tokens, j + 1).text.toLowerCase()) && at(tokens, j + 1).pre !== '') {
          text += ` ${at(tokens, j + 1).text}`;
          j++;
        }
        out.push(pre + text + ` ${CURRENCY[t.text]}`);
        changed = true;
        i = j;
        continue;
      }
      out.push(pre + t.text);
      continue;
    }
    changed = true;
    if (tokens[i + 1]?.text === '%') {
      out.push(`${pre}${words} percent`);
      i++;
    } else {
      out.push(pre + words);
    }
  }
  return changed ? out.join('') : null;
}
