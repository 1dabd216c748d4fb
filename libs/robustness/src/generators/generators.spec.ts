import { createRng } from '../random';
import { tagEnglish } from './english-nlp';
import { generateSuite, UnsupportedLanguageError } from './generate-suite';
import { FIRST_NAMES, nameSwap } from './name-swap';
import { negation } from './negation';
import { numberChange, randomNumberLike } from './number-change';
import { numberToWords, spellOutNumbers } from './number-words';
import type { Perturber } from './perturbation';
import { pronounSwap } from './pronoun-swap';
import { buildVocabulary } from './vocabulary';
import { addition, mismatch, omission, subjectVerbDisagreement, typo, wordShuffle } from './word-edits';
import { defined } from '../../../../test/support/defined';

const vocabulary = buildVocabulary([]);
const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);

function apply(p: Perturber, text: string, seed = 1): string | null {
  return p(tagEnglish(text), { rng: createRng(seed), vocabulary })?.text ?? null;
}

/** Positions where two equally long word lists differ. */
function changedPositions(a: string[], b: string[]): number[] {
  expect(b).toHaveLength(a.length);
  return a.map((w, i) => (w === b[i] ? -1 : i)).filter((i) => i >= 0);
}

const words = (s: string): string[] => s.split(' ');
const wordOf = (s: string, i: number | undefined): string => defined(words(s)[defined(i, 'a changed position')], `word ${i} of '${s}'`);

describe('numberChange', () => {
  const text = 'Bilateral trade rose to 100 billion dollars in 2019, up 3.5 percent.';

  it('replaces exactly one number with a different one of the same format', () => {
    for (const seed of SEEDS) {
      const out = apply(numberChange, text, seed) as string;
      const [i] = changedPositions(words(text), words(out));
      expect(changedPositions(words(text), words(out))).toHaveLength(1);
      const before = wordOf(text, i).replace(/,$/, '');
      const after = wordOf(out, i).replace(/,$/, '');
      expect(after).not.toBe(before);
      expect(after.length).toBe(before.length);
      expect(after.includes('.')).toBe(before.includes('.'));
    }
  });

  it('keeps thousands separators and decimal places', () => {
    const rng = createRng(3);
    for (let k = 0; k < 20; k++) {
      expect(randomNumberLike('1,250', rng)).toMatch(/^[1-9],\d{3}$/);
      expect(randomNumberLike('0.75', rng)).toMatch(/^\d\.\d{2}$/);
    }
  });

  it('does not apply to a sentence without digits', () => {
    expect(apply(numberChange, 'Emerging economies will remain weak.')).toBeNull();
  });
});

describe('spellOutNumbers (the good side of the number phenomenon)', () => {
  it('writes numbers as words like num2words, with currency and percent words', () => {
    // Expected strings follow num2words' English cardinals without its "and"/commas.
    expect(numberToWords('1,250')).toBe('one thousand two hundred fifty');
    expect(numberToWords('3.05')).toBe('three point zero five');
    expect(numberToWords('2019')).toBe('two thousand nineteen');
    expect(spellOutNumbers(tagEnglish('Bilateral trade has increased to more than $100 billion a year.'))).toBe(
      'Bilateral trade has increased to more than one hundred billion dollars a year.',
    );
    expect(spellOutNumbers(tagEnglish('Prices are up 300% this year.'))).toBe('Prices are up three hundred percent this year.');
  });
});

describe('negation', () => {
  it('adds "not" after the auxiliary', () => {
    expect(apply(negation, 'Emerging economies will remain weak.')).toBe('Emerging economies will not remain weak.');
  });

  it('adds do-support to a lexical verb in the right tense', () => {
    expect(apply(negation, 'She likes the new plan.')).toBe('She does not like the new plan.');
    expect(apply(negation, 'The company grew quickly.')).toBe('The company did not grow quickly.');
  });

  it("removes an existing negation and restores the contracted host (won't → will)", () => {
    expect(apply(negation, "Emerging economies won't remain weak.")).toBe('Emerging economies will remain weak.');
    expect(apply(negation, 'The plan is not ready.')).toBe('The plan is ready.');
  });
});

describe('pronounSwap', () => {
  it('swaps one pronoun for its grammatical counterpart and leaves the rest', () => {
    const text = 'He told us that they would visit his parents.';
    const pairs: Record<string, string> = { He: 'She', us: 'them', they: 'we', his: 'her' };
    const seen = new Set<string>();
    for (const seed of SEEDS) {
      const out = apply(pronounSwap, text, seed) as string;
      const diff = changedPositions(words(text), words(out));
      expect(diff).toHaveLength(1);
      const before = wordOf(text, diff[0]);
      expect(wordOf(out, diff[0])).toBe(pairs[before]);
      seen.add(before);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('turns possessive "her" into "his" and object "her" into "him"', () => {
    expect(apply(pronounSwap, 'Anna sold her car.')).toBe('Anna sold his car.');
    expect(apply(pronounSwap, 'They thanked her.', 1)).not.toBeNull();
    const outs = SEEDS.map((s) => apply(pronounSwap, 'We thanked her.', s));
    expect(outs).toContain('We thanked him.');
    expect(outs).toContain('They thanked her.');
  });
});

describe('nameSwap', () => {
  it('replaces exactly one first name with another of the same gender', () => {
    const text = 'Angela Merkel met Barack Obama in Berlin.';
    for (const seed of SEEDS) {
      const out = apply(nameSwap, text, seed) as string;
      const diff = changedPositions(words(text), words(out));
      expect(diff).toHaveLength(1);
      const [before, after] = [wordOf(text, diff[0]), wordOf(out, diff[0])];
      const gender = (FIRST_NAMES.female as readonly string[]).includes(before) ? 'female' : 'male';
      expect(FIRST_NAMES[gender] as readonly string[]).toContain(after);
      expect(after).not.toBe(before);
    }
  });

  it('does not apply without a known first name', () => {
    expect(apply(nameSwap, 'The ministry published the report.')).toBeNull();
  });
});

describe('addition', () => {
  it('inserts "and" plus a noun of the same number right after a noun', () => {
    const text = 'The farmers sold vegetables at the market.';
    for (const seed of SEEDS) {
      const result = apply(addition, text, seed) as string;
      const out = words(result);
      const k = out.indexOf('and');
      const host = defined(out[k - 1]);
      const added = defined(out[k + 1]).replace(/\.$/, '');
      expect(result.replace(` and ${added}`, '')).toBe(text);
      expect(['farmers', 'vegetables', 'market']).toContain(host);
      expect(added.endsWith('s')).toBe(host.endsWith('s'));
    }
  });
});

describe('omission', () => {
  it('drops between one word and 20% of the words, keeping order and punctuation', () => {
    const text = 'The committee will publish its final report on the economic effects of the new trade agreement next spring.';
    const orig = words(text.slice(0, -1));
    for (const seed of SEEDS) {
      const out = apply(omission, text, seed) as string;
      expect(out.endsWith('.')).toBe(true);
      const kept = words(out.slice(0, -1));
      const dropped = orig.length - kept.length;
      expect(dropped).toBeGreaterThanOrEqual(1);
      expect(dropped).toBeLessThanOrEqual(Math.floor(orig.length * 0.2));
      let j = 0;
      for (const w of orig) if (w === kept[j]) j++;
      expect(j).toBe(kept.length); // kept is a subsequence of the original
    }
  });

  it("never drops part of a contraction, possessive or hyphenated word", () => {
    const text = "You can't see John's 28-year-old brother today.";
    for (const seed of SEEDS) {
      const out = apply(omission, text, seed) as string;
      // Every word left is a whole word of the original ("youn't" or "'s" alone would not be).
      const kept = words(out.slice(0, -1));
      expect(kept.length).toBeLessThan(7);
      for (const w of kept) expect(words(text.slice(0, -1))).toContain(w);
    }
  });
});

describe('mismatch', () => {
  const cases = [
    ['NOUN', 'The farmers sold fresh vegetables.', ['farmers', 'vegetables']],
    ['VERB', 'The farmers sold fresh vegetables.', ['sold']],
    ['ADJ', 'The farmers sold fresh vegetables.', ['fresh']],
  ] as const;
  it.each(cases)('replaces one %s with a different word of the same tag and inflection', (pos, text, targets) => {
    for (const seed of SEEDS) {
      const out = apply(mismatch(pos), text, seed) as string;
      const diff = changedPositions(words(text), words(out));
      expect(diff).toHaveLength(1);
      const before = wordOf(text, diff[0]).replace(/\.$/, '');
      const after = wordOf(out, diff[0]).replace(/\.$/, '');
      expect(targets as readonly string[]).toContain(before);
      const [tagged] = tagEnglish(`The ${after}`).slice(1);
      if (pos === 'NOUN') expect(after.endsWith('s')).toBe(before.endsWith('s'));
      expect(tagged?.text).toBe(after);
      expect(after).not.toBe(before);
    }
  });
});

describe('fluency perturbations', () => {
  const text = 'The new bridge connects two busy districts of the city.';

  it('shuffles the words, keeping the same multiset and the final full stop', () => {
    for (const seed of SEEDS) {
      const out = apply(wordShuffle, text, seed) as string;
      expect(out).not.toBe(text);
      expect(out.endsWith('.')).toBe(true);
      expect(words(out.slice(0, -1)).sort()).toEqual(words(text.slice(0, -1)).sort());
    }
  });

  it('puts one typo (swap, drop or double one inner letter) into exactly one word', () => {
    for (const seed of SEEDS) {
      const out = apply(typo, text, seed) as string;
      const diff = changedPositions(words(text), words(out));
      expect(diff).toHaveLength(1);
      const [a, b] = [wordOf(text, diff[0]).replace(/\.$/, ''), wordOf(out, diff[0]).replace(/\.$/, '')];
      expect(a[0]).toBe(b[0]);
      expect(a[a.length - 1]).toBe(b[b.length - 1]);
      expect(Math.abs(a.length - b.length)).toBeLessThanOrEqual(1);
      if (a.length === b.length) expect(Array.from(a).sort().join('')).toBe(Array.from(b).sort().join(''));
    }
  });

  it('breaks subject–verb agreement on the finite verb only', () => {
    expect(apply(subjectVerbDisagreement, 'He likes animals.')).toBe('He like animals.');
    expect(apply(subjectVerbDisagreement, 'The results were published yesterday.')).toBe('The results was published yesterday.');
    expect(apply(subjectVerbDisagreement, 'They eat apples.')).toBe('They eats apples.');
  });
});

describe('generateSuite', () => {
  const references = [
    'Bilateral trade has increased to more than $100 billion a year.',
    'Emerging economies will remain weak.',
    'He told us that Angela would visit his parents.',
    'The farmers sold fresh vegetables at the market.',
  ];
  const paraphrases = [
    'Trade between the two countries has grown to over 100 billion dollars annually.',
    'Emerging markets are going to stay weak.',
    'He said to us that Angela was going to visit his mother and father.',
    'At the market, the farmers sold fresh vegetables.',
  ];

  it('is reproducible for a seed and changes with the seed', () => {
    const a = generateSuite({ references, paraphrases, seed: 5 });
    const b = generateSuite({ references, paraphrases, seed: 5 });
    const c = generateSuite({ references, paraphrases, seed: 6 });
    expect(a.rows).toEqual(b.rows);
    expect(a.rows).not.toEqual(c.rows);
  });

  it('uses the paraphrase as good side, and spelled-out numbers for the number phenomenon', () => {
    const suite = generateSuite({ references, paraphrases, seed: 1 });
    const num = suite.rows.filter((r) => r.error === 'num');
    expect(num).toHaveLength(1);
    expect(num[0]?.hypPara).toBe('Bilateral trade has increased to more than one hundred billion dollars a year.');
    const neg = suite.rows.find((r) => r.error === 'neg' && r.id === '2');
    expect(neg).toMatchObject({ ref: references[1], hypPara: paraphrases[1], hypAdvBased: 'Emerging economies will not remain weak.' });
    expect(suite.counts.name).toBe(1);
    expect(suite.goodSide).toBe('paraphrases');
  });

  it('makes only number rows when there is no paraphrase or second reference', () => {
    const suite = generateSuite({ references });
    expect(new Set(suite.rows.map((r) => r.error))).toEqual(new Set(['num']));
    expect(suite.goodSide).toBe('none');
  });

  it('refuses references in a language other than English', () => {
    expect(() => generateSuite({ references: ['Die Wirtschaft bleibt schwach.'], language: 'de' })).toThrow(UnsupportedLanguageError);
  });

  it('rejects paraphrases that are not line-aligned with the references', () => {
    expect(() => generateSuite({ references, paraphrases: paraphrases.slice(1) })).toThrow(/3 lines/);
  });
});
