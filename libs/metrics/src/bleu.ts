/**
 * BLEU exactly as sacreBLEU 2.x computes it (sacrebleu/metrics/bleu.py).
 *
 * Sufficient statistics per segment: `[hypLen, refLen, correct_1..N, total_1..N]` where
 * `correct_n` counts hypothesis n-grams clipped by the maximum count over the references
 * and `refLen` is the reference length closest to `hypLen` (shorter on ties).
 * Score: `BP · exp(Σ_{n≤N'} log p_n / N')`, `p_n = 100·correct_n/total_n`,
 * `BP = exp(1 − r/c)` when `c < r` else 1 (Papineni et al., 2002; Post, 2018).
 */
import { MetricInputError } from './errors';
import { clippedMatches, maxBase, numericNgramKeys, sortedIntersectionSize, stringNgramKeys, type NgramKeys } from './ngram-keys';
import { pyRstrip } from './text';
import { getBleuTokenSplitter, isBleuTokenizerName, type BleuTokenizerName, BLEU_TOKENIZERS } from './tokenizers';
import { PODIUM_METRICS_VERSION } from './version';

/** sacreBLEU's smoothing methods for BLEU (Chen & Cherry, 2014). */
export type BleuSmoothMethod = 'exp' | 'floor' | 'add-k' | 'none';
/** Smoothing methods in sacreBLEU's order. */
export const BLEU_SMOOTH_METHODS: readonly BleuSmoothMethod[] = ['exp', 'floor', 'add-k', 'none'];

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
    throw new MetricInputError(`unknown BLEU smoothing '${String(smooth)}' (expected one of ${BLEU_SMOOTH_METHODS.join(', ')})`);
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


/** Reused between segments (cleared each time) to avoid allocating a Map per segment. */
const segmentVocab = new Map<string, number>();

/**
 * BLEU sufficient statistics of one segment from already tokenized hypothesis and
 * references: `[hypLen, refLen, correct_1..N, total_1..N]`.
 * Example: `bleuStatsFromTokens(['a','b'], [['a','c']], 2)` → `[2, 2, 1, 0, 2, 1]`.
 */
export function bleuStatsFromTokens(hyp: readonly string[], refs: readonly (readonly string[])[], maxOrder: number): number[] {
  const correct = new Array<number>(maxOrder).fill(0);
  const total = new Array<number>(maxOrder).fill(0);
  for (let n = 1; n <= maxOrder; n++) total[n - 1] = Math.max(0, hyp.length - n + 1);
  const refLen = closestRefLength(
    hyp.length,
    refs.map((r) => r.length),
  );

  // Map the words of this segment to small integer ids for exact numeric n-gram keys.
  const vocab = segmentVocab;
  vocab.clear();
  const toIds = (tokens: readonly string[]): Int32Array => {
    const ids = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) {
      let id = vocab.get(tokens[i]);
      if (id === undefined) {
        id = vocab.size + 1;
        vocab.set(tokens[i], id);
      }
      ids[i] = id;
    }
    return ids;
  };
  const hypIds = toIds(hyp);
  const refIds = refs.map(toIds);
  const base = vocab.size + 1;
  const numeric = base <= maxBase(maxOrder);
  if (numeric && refs.length === 1) {
    const matches = clippedMatches(hypIds, refIds[0], maxOrder, base);
    return [hyp.length, refLen, ...matches, ...total];
  }
  const keysOf = (ids: Int32Array, tokens: readonly string[]): NgramKeys[] =>
    numeric ? numericNgramKeys(ids, maxOrder, base) : stringNgramKeys(tokens, maxOrder, ' ');
  const hypKeys = keysOf(hypIds, hyp);

  if (refs.length === 1) {
    const refKeys = keysOf(refIds[0], refs[0]);
    for (let n = 0; n < maxOrder; n++) correct[n] = sortedIntersectionSize(hypKeys[n], refKeys[n]);
  } else if (refs.length > 1) {
    // Clip by the maximum count of each n-gram over all references.
    const maxCounts: Map<number | string, number>[] = [];
    for (let n = 0; n < maxOrder; n++) maxCounts.push(new Map());
    for (let k = 0; k < refs.length; k++) {
      const rk = keysOf(refIds[k], refs[k]);
      for (let n = 0; n < maxOrder; n++) {
        const keys = rk[n];
        const m = maxCounts[n];
        let i = 0;
        while (i < keys.length) {
          let j = i + 1;
          while (j < keys.length && keys[j] === keys[i]) j++;
          const c = j - i;
          if ((m.get(keys[i]) ?? 0) < c) m.set(keys[i], c);
          i = j;
        }
      }
    }
    for (let n = 0; n < maxOrder; n++) {
      const keys = hypKeys[n];
      const m = maxCounts[n];
      let i = 0;
      while (i < keys.length) {
        let j = i + 1;
        while (j < keys.length && keys[j] === keys[i]) j++;
        correct[n] += Math.min(j - i, m.get(keys[i]) ?? 0);
        i = j;
      }
    }
  }
  return [hyp.length, refLen, ...correct, ...total];
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
  const sysLen = row[0];
  const refLen = row[1];
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
      correct[n - 1] += smoothValue;
      total[n - 1] += smoothValue;
    }
    if (total[n - 1] === 0) break;
    if (effectiveOrder) effOrder = n;
    if (correct[n - 1] === 0) {
      if (c.smooth === 'exp') {
        smoothMteval *= 2;
        precisions[n - 1] = 100 / (smoothMteval * total[n - 1]);
      } else if (c.smooth === 'floor') {
        precisions[n - 1] = (100 * smoothValue) / total[n - 1];
      }
    } else {
      precisions[n - 1] = (100 * correct[n - 1]) / total[n - 1];
    }
  }
  let sumLog = 0;
  for (let i = 0; i < effOrder; i++) sumLog += myLog(precisions[i]);
  return bp * Math.exp(sumLog / effOrder);
}
