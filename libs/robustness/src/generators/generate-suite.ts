import type { MenliRow } from '../menli-suite';
import { createRng, deriveSeed } from '../random';
import { tagEnglish } from './english-nlp';
import type { Token } from './english-nlp';
import { nameSwap } from './name-swap';
import { negation } from './negation';
import { numberChange } from './number-change';
import { spellOutNumbers } from './number-words';
import type { Perturber } from './perturbation';
import { pronounSwap } from './pronoun-swap';
import { buildVocabulary } from './vocabulary';
import { addition, mismatch, omission, subjectVerbDisagreement, typo, wordShuffle } from './word-edits';
import { at } from '@podium/contracts';

/** Phenomenon codes, as in MENLI's data files; the last three are the fluency set. */
export const PHENOMENA = [
  'add', 'drop', 'name', 'neg', 'num', 'pron', 'word_JJ', 'word_NN', 'word_VB', 'typo', 'jumble', 'subject_verb_dis',
] as const;

/** One of {@link PHENOMENA}. */
export type Phenomenon = (typeof PHENOMENA)[number];

/** The perturbation behind each phenomenon code. */
export const PERTURBERS: Record<Phenomenon, Perturber> = {
  add: addition,
  drop: omission,
  name: nameSwap,
  neg: negation,
  num: numberChange,
  pron: pronounSwap,
  word_JJ: mismatch('ADJ'),
  word_NN: mismatch('NOUN'),
  word_VB: mismatch('VERB'),
  typo,
  jumble: wordShuffle,
  subject_verb_dis: subjectVerbDisagreement,
};

/** Languages the generators support (wink-nlp's English model). */
export const SUPPORTED_GENERATOR_LANGUAGES = ['en'] as const;

/** Thrown for a reference language without a tagger and perturbation rules. */
export class UnsupportedLanguageError extends Error {
  constructor(readonly language: string) {
    super(`suite generation supports English references only (language 'en'), not '${language}'`);
    this.name = 'UnsupportedLanguageError';
  }
}

/** A task's own data from which to build an adversarial suite. */
export interface SuiteGenerationInput {
  /** The references to perturb, one segment each; they are the anchors. */
  references: readonly string[];
  /** A second reference per segment: the good side when no paraphrases are given. */
  secondReferences?: readonly string[];
  /** User-supplied paraphrases of `references`, line-aligned: the preferred good side. */
  paraphrases?: readonly string[];
  /** Source segments, copied to the `source` column. */
  sources?: readonly string[];
  /** ISO code of the references' language (default `en`, the only one supported). */
  language?: string;
  /** Seed of every random choice (default 12345). */
  seed?: number;
  /** Most rows per phenomenon (default 200, as in MENLI's WMT20_de). */
  perPhenomenon?: number;
  phenomena?: readonly Phenomenon[];
}

/** A generated suite in MENLI rows plus what was generated. */
export interface GeneratedSuite {
  rows: MenliRow[];
  seed: number;
  /** Rows made per phenomenon. */
  counts: Record<string, number>;
  /** Where the good side came from: paraphrases, second references, or none (numbers only). */
  goodSide: 'paraphrases' | 'second-reference' | 'none';
}

/**
 * Generates a reference-based MENLI-format suite from a task's references: each phenomenon
 * perturbs up to `perPhenomenon` references, visited in a seeded random order, into
 * `hyp_adv_based`. The good side (`hyp_para`) is the paraphrase or second reference of the
 * same segment, except for `num`, where it is the reference with its numbers spelled out
 * (MENLI M:394–398). Rows whose good side is missing, empty or equal to the reference are
 * skipped. `r` and `hyp_adv_free` stay empty: a generated suite is reference-based only.
 * @throws UnsupportedLanguageError for a language other than English.
 * @throws RangeError when the line-aligned inputs differ in length.
 */
export function generateSuite(input: SuiteGenerationInput): GeneratedSuite {
  const language = (input.language ?? 'en').toLowerCase();
  if (!(SUPPORTED_GENERATOR_LANGUAGES as readonly string[]).includes(language)) throw new UnsupportedLanguageError(language);
  const refs = input.references;
  for (const [name, lines] of [
    ['second references', input.secondReferences],
    ['paraphrases', input.paraphrases],
    ['sources', input.sources],
  ] as const) {
    if (lines && lines.length !== refs.length) {
      throw new RangeError(`${name} have ${lines.length} lines but the references have ${refs.length}`);
    }
  }
  const seed = input.seed ?? 12345;
  const perPhenomenon = input.perPhenomenon ?? 200;
  const goodLines = input.paraphrases ?? input.secondReferences;
  const tagged = new Array<Token[] | undefined>(refs.length);
  const tag = (i: number): Token[] => (tagged[i] ??= tagEnglish(at(refs, i)));
  const vocabulary = buildVocabulary([
    ...refs.map((_, i) => tag(i)),
    ...(input.secondReferences ?? []).map((s) => tagEnglish(s)),
  ]);

  const rows: MenliRow[] = [];
  const counts: Record<string, number> = {};
  for (const phenomenon of input.phenomena ?? PHENOMENA) {
    const rng = createRng(deriveSeed(seed, phenomenon));
    const order = refs.map((_, i) => i);
    for (let k = order.length - 1; k > 0; k--) {
      const j = rng.int(k + 1);
      [order[k], order[j]] = [at(order, j), at(order, k)];
    }
    let made = 0;
    for (const i of order) {
      if (made >= perPhenomenon) break;
      const ref = at(refs, i).trim();
      if (ref === '') continue;
      const tokens = tag(i);
      const good = phenomenon === 'num' ? spellOutNumbers(tokens) : goodLines?.[i]?.trim();
      if (!good || good === ref) continue;
      const attack = PERTURBERS[phenomenon](tokens, { rng, vocabulary });
      if (!attack || attack.text === ref) continue;
      rows.push({
        error: phenomenon,
        id: String(i + 1),
        source: input.sources?.[i] ?? '',
        ref,
        r: '',
        hypPara: good,
        hypAdvBased: attack.text,
        hypAdvFree: '',
      });
      made++;
    }
    counts[phenomenon] = made;
  }
  return {
    rows,
    seed,
    counts,
    goodSide: input.paraphrases ? 'paraphrases' : input.secondReferences ? 'second-reference' : 'none',
  };
}
