/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * BLEU exactly as sacreBLEU 2.x computes it (sacrebleu/metrics/bleu.py).
 *
 * Sufficient statistics per segment: `[hypLen, refLen, correct_1..N, total_1..N]` where
 * `correct_n` counts hypothesis n-grams clipped by the maximum count over the references
 * and `refLen` is the reference length closest to `hypLen` (shorter on ties).
 * Score: `BP · exp(Σ_{n≤N'} log p_n / N')`, `p_n = 100·correct_n/total_n`,
 * `BP = exp(1 − r/c)` when `c < r` else 1 (Papineni et al., 2002; Post, 2018).
 */
import { MetricInputError } from '../../errors';
import { clippedMatches, clippedMatchesMaxRef } from '../../ngram-table';
import { pyRstrip } from '../../text';
import { beginTokenIds, tokenId, whitespaceTokenIds } from '../../token-table';
import {
  BLEU_TOKENIZERS,
  getBleuTokenSplitter,
  getBleuTokenizedLine,
  isBleuTokenizerName,
  spans13a,
  type BleuTokenizerName,
  type TokenSpans,
} from '../../tokenizers';
import { PODIUM_METRICS_VERSION } from '../../version';

/** sacreBLEU's smoothing methods for BLEU (Chen & Cherry, 2014). */
export type BleuSmoothMethod = 'exp' | 'floor' | 'add-k' | 'none';
/** Smoothing methods in sacreBLEU's order. */
export const BLEU_SMOOTH_METHODS = ['exp', 'floor', 'add-k', 'none'] as const satisfies readonly BleuSmoothMethod[];

/** Default smoothing values, as sacreBLEU's `BLEU.SMOOTH_DEFAULTS`. */
const SMOOTH_DEFAULTS: Record<BleuSmoothMethod, number | undefined> = {
  none: undefined,
  floor: 0.1,
  'add-k': 1,
  exp: undefined,
};

/** Fully resolved BLEU options. */
export interface BleuConfig {
  tokenize: BleuTokenizerName;
  lowercase: boolean;
  smooth: BleuSmoothMethod;
  /** Value for `floor` / `add-k`; undefined means sacreBLEU's default (0.1 / 1). */
  smoothValue?: number;
  /** Effective order for the corpus score (sacreBLEU `eff:`), default false. */
  effectiveOrder: boolean;
  /** Effective order for per-segment scores, default true (as `sentence_bleu`). */
  sentenceEffectiveOrder: boolean;
  maxNgramOrder: number;
}

/**
 * Fills sacreBLEU's defaults (13a, exp, order 4) and validates BLEU options; throws
 * {@link MetricInputError} on bad values. Example: `resolveBleuConfig({}).tokenize` → `'13a'`.
 */
export function resolveBleuConfig(o: Partial<BleuConfig>): BleuConfig {
  const tokenize = o.tokenize ?? '13a';
  if (!isBleuTokenizerName(tokenize)) {
    throw new MetricInputError(`unknown BLEU tokenizer '${String(tokenize)}' (expected one of ${BLEU_TOKENIZERS.join(', ')})`);
  }
  const smooth = o.smooth ?? 'exp';
  if (!BLEU_SMOOTH_METHODS.includes(smooth)) {
    throw new MetricInputError(`unknown BLEU smoothing '${smooth}' (expected one of ${BLEU_SMOOTH_METHODS.join(', ')})`);
  }
  if (o.smoothValue !== undefined && !(Number.isFinite(o.smoothValue) && o.smoothValue >= 0)) {
    throw new MetricInputError(`BLEU smoothing value must be a non-negative number, got ${o.smoothValue}`);
  }
  const maxNgramOrder = o.maxNgramOrder ?? 4;
  if (!Number.isInteger(maxNgramOrder) || maxNgramOrder < 1 || maxNgramOrder > 10) {
    throw new MetricInputError(`BLEU max n-gram order must be an integer in 1..10, got ${maxNgramOrder}`);
  }
  return {
    tokenize,
    lowercase: o.lowercase ?? false,
    smooth,
    smoothValue: o.smoothValue,
    effectiveOrder: o.effectiveOrder ?? false,
    sentenceEffectiveOrder: o.sentenceEffectiveOrder ?? true,
    maxNgramOrder,
  };
}

/**
 * sacreBLEU's BLEU signature body, e.g. `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:podium-0.1.0`
 * (`smooth:floor[0.10]`, `smooth:add-k[1.00]` when the method takes a value).
 */
export function bleuSignature(c: BleuConfig, nrefs: number, effectiveOrder: boolean): string {
  let smooth: string = c.smooth;
  const def = SMOOTH_DEFAULTS[c.smooth];
  if (def !== undefined) smooth += `[${(c.smoothValue ?? def).toFixed(2)}]`;
  return [
    `nrefs:${nrefs}`,
    `case:${c.lowercase ? 'lc' : 'mixed'}`,
    `eff:${effectiveOrder ? 'yes' : 'no'}`,
    `tok:${c.tokenize}`,
    `smooth:${smooth}`,
    `version:${PODIUM_METRICS_VERSION}`,
  ].join('|');
}

/**
 * sacreBLEU's `BLEU._preprocess_segment` then `split()`: optional lowercasing, `rstrip`,
 * tokenization. Example: `bleuTokens(resolveBleuConfig({}), 'Hi, you.')` → `['Hi', ',', 'you', '.']`.
 */
export function bleuTokens(c: BleuConfig, line: string): string[] {
  const s = c.lowercase ? line.toLowerCase() : line;
  return getBleuTokenSplitter(c.tokenize)(pyRstrip(s));
}

/**
 * sacreBLEU's `_get_closest_ref_len`: the reference length closest to `hypLen`, shorter on
 * ties (the `r` of the brevity penalty). Example: `closestRefLength(5, [7, 3])` → 3.
 */
export function closestRefLength(hypLen: number, refLens: readonly number[]): number {
  let closestDiff = -1;
  let closestLen = -1;
  for (const refLen of refLens) {
    const diff = Math.abs(hypLen - refLen);
    if (closestDiff === -1 || diff < closestDiff) {
      closestDiff = diff;
      closestLen = refLen;
    } else if (diff === closestDiff && refLen < closestLen) {
      closestLen = refLen;
    }
  }
  return closestLen;
}


// Scratch buffers reused across segments: token ids of the hypothesis and of a single
// reference, and the token spans of one 13a-tokenized line.
let hypIds = new Int32Array(256);
let refIds = new Int32Array(256);
const spans: TokenSpans = { text: '', starts: new Int32Array(256), ends: new Int32Array(256), count: 0 };

/** Lowercased when asked and right-stripped, as sacreBLEU's `_preprocess_segment`. */
function preprocess(c: BleuConfig, line: string): string {
  return pyRstrip(c.lowercase ? line.toLowerCase() : line);
}

/**
 * Token ids of a preprocessed line, as {@link bleuTokens} would split it, written into `out`
 * (at least `line.length` long: no tokenizer adds non-space characters); returns how many.
 * 13a is scanned without regular expressions ({@link spans13a}); the others are tokenized to
 * a string and split in place.
 */
function lineIds(c: BleuConfig, line: string, out: Int32Array): number {
  if (c.tokenize !== '13a') return whitespaceTokenIds(getBleuTokenizedLine(c.tokenize)(line), out);
  if (spans.starts.length < line.length + 2) {
    spans.starts = new Int32Array(2 * line.length + 2);
    spans.ends = new Int32Array(2 * line.length + 2);
  }
  spans13a(line, spans);
  const { text, starts, ends, count } = spans;
  for (let k = 0; k < count; k++) out[k] = tokenId(text, starts[k]!, ends[k]!);
  return count;
}

/** Writes the ids of already split `tokens` into `out` and returns how many. */
function idsOfTokens(tokens: readonly string[], out: Int32Array): number {
  for (let i = 0; i < tokens.length; i++) out[i] = tokenId(tokens[i]!, 0, tokens[i]!.length);
  return tokens.length;
}

/** `[hypLen, refLen, correct_1..N, total_1..N]` from the lengths and clipped matches. */
function bleuRow(hypLen: number, refLens: readonly number[], correct: readonly number[], maxOrder: number): number[] {
  const row = [hypLen, closestRefLength(hypLen, refLens)];
  for (let n = 0; n < maxOrder; n++) row.push(correct[n]!);
  for (let n = 1; n <= maxOrder; n++) row.push(Math.max(0, hypLen - n + 1));
  return row;
}

const correctScratch: number[] = [];

/**
 * BLEU sufficient statistics of one segment from already tokenized hypothesis and
 * references: `[hypLen, refLen, correct_1..N, total_1..N]`. N-grams are counted by hashing
 * (ngram-table.ts); with several references each count is clipped by its maximum over them.
 * Example: `bleuStatsFromTokens(['a','b'], [['a','c']], 2)` → `[2, 2, 1, 0, 2, 1]`.
 */
export function bleuStatsFromTokens(hyp: readonly string[], refs: readonly (readonly string[])[], maxOrder: number): number[] {
  beginTokenIds();
  const h = new Int32Array(hyp.length);
  idsOfTokens(hyp, h);
  const rs = refs.map((r) => {
    const ids = new Int32Array(r.length);
    idsOfTokens(r, ids);
    return ids;
  });
  return statsFromIds(h, h.length, rs, maxOrder);
}

function statsFromIds(h: Int32Array, nh: number, refs: readonly Int32Array[], maxOrder: number, nr0 = refs[0]?.length ?? 0): number[] {
  const correct = correctScratch;
  if (refs.length === 1) clippedMatches(h, nh, refs[0]!, nr0, maxOrder, correct);
  else if (refs.length > 1) clippedMatchesMaxRef(h.subarray(0, nh), refs, maxOrder, correct);
  else for (let n = 0; n < maxOrder; n++) correct[n] = 0;
  const refLens = refs.length === 1 ? [nr0] : refs.map((r) => r.length);
  return bleuRow(nh, refLens, correct, maxOrder);
}

/**
 * BLEU sufficient statistics of one segment from raw lines: {@link bleuTokens} then
 * {@link bleuStatsFromTokens}, but the tokens are read as spans of the tokenized line (13a:
 * found in one scan, without the regular expressions) and interned by hashing, so no token
 * string (and no per-segment `Map`) is created.
 * Example: `bleuStats(resolveBleuConfig({ maxNgramOrder: 2 }), 'a b', ['a c'])` → `[2, 2, 1, 0, 2, 1]`.
 */
export function bleuStats(c: BleuConfig, hypothesis: string, references: readonly string[]): number[] {
  beginTokenIds();
  const hyp = preprocess(c, hypothesis);
  if (hypIds.length < hyp.length) hypIds = new Int32Array(2 * hyp.length);
  const nh = lineIds(c, hyp, hypIds);
  if (references.length === 1) {
    const ref = preprocess(c, references[0]!);
    if (refIds.length < ref.length) refIds = new Int32Array(2 * ref.length);
    const nr = lineIds(c, ref, refIds);
    return statsFromIds(hypIds, nh, [refIds], c.maxNgramOrder, nr);
  }
  const refs = references.map((r) => {
    const line = preprocess(c, r);
    const ids = new Int32Array(line.length);
    return ids.subarray(0, lineIds(c, line, ids));
  });
  return statsFromIds(hypIds, nh, refs, c.maxNgramOrder);
}

/** Python `my_log`: log with log(0) := −9999999999. */
function myLog(x: number): number {
  return x === 0 ? -9999999999 : Math.log(x);
}

/**
 * sacreBLEU's `BLEU.compute_bleu` on one statistics row (0–100).
 * Example: a hypothesis identical to its 4-word reference, row `[4,4,4,3,2,1,4,3,2,1]` → 100.
 */
export function bleuFromStats(
  row: readonly number[],
  c: Pick<BleuConfig, 'smooth' | 'smoothValue' | 'maxNgramOrder'>,
  effectiveOrder: boolean,
): number {
  const N = c.maxNgramOrder;
  const sysLen = row[0]!;
  const refLen = row[1]!;
  const correct = row.slice(2, 2 + N);
  const total = row.slice(2 + N, 2 + 2 * N);
  const smoothValue = c.smoothValue ?? SMOOTH_DEFAULTS[c.smooth] ?? 0;

  let bp = 1.0;
  if (sysLen < refLen) bp = sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0.0;

  const precisions = new Array<number>(N).fill(0);
  if (!correct.some((x) => x !== 0)) return 0.0;

  let smoothMteval = 1.0;
  let effOrder = N;
  for (let n = 1; n <= N; n++) {
    if (c.smooth === 'add-k' && n > 1) {
      correct[n - 1]! += smoothValue;
      total[n - 1]! += smoothValue;
    }
    if (total[n - 1] === 0) break;
    if (effectiveOrder) effOrder = n;
    if (correct[n - 1] === 0) {
      if (c.smooth === 'exp') {
        smoothMteval *= 2;
        precisions[n - 1] = 100 / (smoothMteval * total[n - 1]!);
      } else if (c.smooth === 'floor') {
        precisions[n - 1] = (100 * smoothValue) / total[n - 1]!;
      }
    } else {
      precisions[n - 1] = (100 * correct[n - 1]!) / total[n - 1]!;
    }
  }
  let sumLog = 0;
  for (let i = 0; i < effOrder; i++) sumLog += myLog(precisions[i]!);
  return bp * Math.exp(sumLog / effOrder);
}
