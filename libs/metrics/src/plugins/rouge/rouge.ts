/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum exactly as Google's `rouge-score` package
 * (rouge_score/rouge_scorer.py, tokenize.py; Lin, 2004).
 *
 * Tokens: lowercase, every run of characters outside `[a-z0-9]` becomes a separator,
 * optional Porter stemming (NLTK) of tokens longer than 3 characters.
 * ROUGE-N: clipped n-gram overlap; P = overlap / max(#hyp n-grams, 1),
 * R = overlap / max(#ref n-grams, 1). ROUGE-L: LCS length / token counts.
 * ROUGE-Lsum: summary-level LCS over newline-separated sentences (union LCS with
 * double-counting prevention, as ROUGE-1.5.5). F = 2PR / (P + R), 0 when P + R = 0.
 * Several references: the one with the highest F-measure (`score_multi`), first on ties.
 */
import { MetricInputError } from '../../errors';
import { porterStem } from './porter-stemmer';
import { PODIUM_METRICS_VERSION } from '../../version';

/** ROUGE variants. */
export type RougeType = 'rouge1' | 'rouge2' | 'rougeL' | 'rougeLsum';

/** Fully resolved ROUGE options. */
export interface RougeConfig {
  /** Porter-stem tokens longer than 3 characters (`use_stemmer=True`), default false. */
  stem: boolean;
}

/**
 * Fills defaults; `lowercase: false` is rejected because rouge-score always lowercases.
 * Example: `resolveRougeConfig({ stem: true })` → `{ stem: true }`.
 */
export function resolveRougeConfig(o: { stem?: boolean; lowercase?: boolean }): RougeConfig {
  if (o.lowercase === false) throw new MetricInputError('ROUGE always lowercases (rouge-score tokenizer); lowercase=false is not supported');
  return { stem: o.stem ?? false };
}

/** Signature body, e.g. `nrefs:1|case:lc|tok:rouge-score|stem:no|multi:max|version:podium-0.1.0`. */
export function rougeSignature(c: RougeConfig, nrefs: number): string {
  return [
    `nrefs:${nrefs}`,
    'case:lc',
    'tok:rouge-score',
    `stem:${c.stem ? 'porter' : 'no'}`,
    'multi:max',
    `version:${PODIUM_METRICS_VERSION}`,
  ].join('|');
}

const NON_ALPHANUM = /[^a-z0-9]+/g;

/**
 * rouge-score's `tokenize.tokenize`: lowercase, replace non-`[a-z0-9]` runs by spaces,
 * split, stem tokens longer than 3 characters when asked, drop empty tokens.
 * Example: `rougeTokens('The quick-brown fox!', false)` → `['the', 'quick', 'brown', 'fox']`.
 */
export function rougeTokens(text: string, stem: boolean): string[] {
  const cleaned = text.toLowerCase().replace(NON_ALPHANUM, ' ');
  const out: string[] = [];
  for (const raw of cleaned.split(/\s+/)) {
    const t = stem && raw.length > 3 ? porterStem(raw) : raw;
    if (/^[a-z0-9]+$/.test(t)) out.push(t);
  }
  return out;
}

/** Precision, recall and F-measure, as rouge-score's `Score`. */
export interface RougePrf {
  precision: number;
  recall: number;
  fmeasure: number;
}

function fmeasure(p: number, r: number): number {
  return p + r > 0 ? (2 * p * r) / (p + r) : 0.0;
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join('\u0000');
    m.set(key, (m.get(key) ?? 0) + 1);
  }
  return m;
}

/**
 * rouge-score's `_score_ngrams` on token lists: overlap = Σ min(count_target, count_prediction).
 * Example: `rougeN(['a','b'], ['a','c'], 1)` → P 0.5, R 0.5, F 0.5.
 */
export function rougeN(target: readonly string[], prediction: readonly string[], n: number): RougePrf {
  const t = ngramCounts(target, n);
  const p = ngramCounts(prediction, n);
  let overlap = 0;
  for (const [k, c] of t) overlap += Math.min(c, p.get(k) ?? 0);
  const tCount = Math.max(0, target.length - n + 1);
  const pCount = Math.max(0, prediction.length - n + 1);
  const precision = overlap / Math.max(pCount, 1);
  const recall = overlap / Math.max(tCount, 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

function lcsTable(ref: readonly string[], can: readonly string[]): Int32Array[] {
  const rows = ref.length;
  const cols = can.length;
  const t: Int32Array[] = [];
  for (let i = 0; i <= rows; i++) t.push(new Int32Array(cols + 1));
  for (let i = 1; i <= rows; i++) {
    for (let j = 1; j <= cols; j++) {
      t[i]![j] = ref[i - 1] === can[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
    }
  }
  return t;
}

/**
 * rouge-score's `_score_lcs`: P = LCS/|prediction|, R = LCS/|target|.
 * Example: `rougeL(['a','b','c'], ['a','c'])` → P 1, R 2/3, F 0.8.
 */
export function rougeL(target: readonly string[], prediction: readonly string[]): RougePrf {
  if (target.length === 0 || prediction.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const lcs = lcsTable(target, prediction)[target.length]![prediction.length]!;
  const precision = lcs / prediction.length;
  const recall = lcs / target.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** rouge-score's `_backtrack_norec`: indices into `ref` of one LCS. */
function lcsIndices(ref: readonly string[], can: readonly string[]): number[] {
  const t = lcsTable(ref, can);
  let i = ref.length;
  let j = can.length;
  const out: number[] = [];
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.push(i - 1);
      i--;
      j--;
    } else if (t[i]![j - 1]! > t[i - 1]![j]!) j--;
    else i--;
  }
  return out.reverse();
}

/**
 * rouge-score's `_summary_level_lcs` on sentence token lists: for each reference sentence the
 * union of its LCS positions with every candidate sentence, counted once per token occurrence.
 * Example (Lin 2004): reference `w1…w5`, candidates `w1 w2 w6 w7 w8` and `w1 w3 w8 w9 w5` → R 0.8, P 0.4.
 */
export function rougeLsum(refSents: readonly (readonly string[])[], canSents: readonly (readonly string[])[]): RougePrf {
  const zero = { precision: 0, recall: 0, fmeasure: 0 };
  if (refSents.length === 0 || canSents.length === 0) return zero;
  const m = refSents.reduce((a, s) => a + s.length, 0);
  const n = canSents.reduce((a, s) => a + s.length, 0);
  if (!n || !m) return zero;
  const cntR = new Map<string, number>();
  const cntC = new Map<string, number>();
  for (const s of refSents) for (const t of s) cntR.set(t, (cntR.get(t) ?? 0) + 1);
  for (const s of canSents) for (const t of s) cntC.set(t, (cntC.get(t) ?? 0) + 1);
  let hits = 0;
  for (const r of refSents) {
    const union = new Set<number>();
    for (const c of canSents) for (const i of lcsIndices(r, c)) union.add(i);
    const sorted = [...union].sort((a, b) => a - b);
    for (const i of sorted) {
      const t = r[i]!;
      const cc = cntC.get(t) ?? 0;
      const cr = cntR.get(t) ?? 0;
      if (cc > 0 && cr > 0) {
        hits++;
        cntC.set(t, cc - 1);
        cntR.set(t, cr - 1);
      }
    }
  }
  const recall = hits / m;
  const precision = hits / n;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** Sentences of a summary for ROUGE-Lsum: split on `\n`, drop empty ones. */
function sentences(text: string): string[] {
  return text.split('\n').filter((s) => s.length > 0);
}

/**
 * rouge-score's `RougeScorer([type], use_stemmer).score(target, prediction)`.
 * Example: `rougeScore('rouge1', {stem: true}, 'The quick brown fox jumps over the lazy dog',
 * 'The quick brown dog jumps on the log.')` → P 0.75, R 0.6667, F 0.7059 (rouge-score README).
 */
export function rougeScore(type: RougeType, c: RougeConfig, target: string, prediction: string): RougePrf {
  if (type === 'rougeLsum') {
    const ts = sentences(target).map((s) => rougeTokens(s, c.stem));
    const ps = sentences(prediction).map((s) => rougeTokens(s, c.stem));
    return rougeLsum(ts, ps);
  }
  const t = rougeTokens(target, c.stem);
  const p = rougeTokens(prediction, c.stem);
  if (type === 'rougeL') return rougeL(t, p);
  return rougeN(t, p, type === 'rouge1' ? 1 : 2);
}

/**
 * ROUGE statistics of one instance: `[precision, recall, fmeasure]` against the reference
 * with the highest F-measure (rouge-score's `score_multi`, first reference on ties).
 */
export function rougeStats(type: RougeType, c: RougeConfig, prediction: string, refs: readonly string[]): number[] {
  let best: RougePrf | undefined;
  for (const ref of refs) {
    const s = rougeScore(type, c, ref, prediction);
    if (best === undefined || s.fmeasure > best.fmeasure) best = s;
  }
  const b = best ?? { precision: 0, recall: 0, fmeasure: 0 };
  return [b.precision, b.recall, b.fmeasure];
}
