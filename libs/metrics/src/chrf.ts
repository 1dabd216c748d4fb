/**
 * chrF and chrF++ exactly as sacreBLEU 2.x computes them (sacrebleu/metrics/chrf.py;
 * Popović, 2015 and 2017).
 *
 * Statistics per segment, for each character order 1..nc then word order 1..nw:
 * `[hypCount, refCount, matches]` (hypCount is 0 when the reference has no n-gram of that
 * order). Score: average precision P and recall R over the orders where both sides have
 * n-grams (sacreBLEU's effective order), then `100·(1+β²)·P·R / (β²·P + R)`.
 * With several references, a segment keeps the statistics of the reference with the best
 * sentence-level chrF (the first one on ties).
 */
import { MetricInputError } from './errors';
import {
  clippedMatches,
  maxBase,
  numericNgramKeys,
  sortedIntersectionSize,
  stringNgramKeys,
  type NgramKeys,
} from './ngram-keys';
import { codePoints, isPyWhitespace, pySplit, removeWhitespace } from './text';
import { PODIUM_METRICS_VERSION } from './version';

/** Fully resolved chrF options. */
export interface ChrfConfig {
  /** Character n-gram order (sacreBLEU `nc`), default 6. */
  charOrder: number;
  /** Word n-gram order (sacreBLEU `nw`): 0 for chrF, 2 for chrF++. */
  wordOrder: number;
  /** Recall weight β, default 2. */
  beta: number;
  lowercase: boolean;
  /** Keep whitespace inside character n-grams (sacreBLEU `space:yes`), default false. */
  whitespace: boolean;
  /** chrF++.py-style eps smoothing instead of effective order (sacreBLEU `eff:no`), default false. */
  epsSmoothing: boolean;
}

/** Fills defaults (chrF: nw 0; chrF++: nw 2) and validates; throws {@link MetricInputError}. */
export function resolveChrfConfig(o: Partial<ChrfConfig>, plusPlus: boolean): ChrfConfig {
  const c: ChrfConfig = {
    charOrder: o.charOrder ?? 6,
    wordOrder: o.wordOrder ?? (plusPlus ? 2 : 0),
    beta: o.beta ?? 2,
    lowercase: o.lowercase ?? false,
    whitespace: o.whitespace ?? false,
    epsSmoothing: o.epsSmoothing ?? false,
  };
  if (!Number.isInteger(c.charOrder) || c.charOrder < 0 || c.charOrder > 10) {
    throw new MetricInputError(`chrF char order must be an integer in 0..10, got ${c.charOrder}`);
  }
  if (!Number.isInteger(c.wordOrder) || c.wordOrder < 0 || c.wordOrder > 4) {
    throw new MetricInputError(`chrF word order must be an integer in 0..4, got ${c.wordOrder}`);
  }
  if (c.charOrder + c.wordOrder === 0) throw new MetricInputError('chrF needs a positive char or word order');
  if (!(Number.isFinite(c.beta) && c.beta >= 1)) throw new MetricInputError(`chrF beta must be a number >= 1, got ${c.beta}`);
  return c;
}

/** sacreBLEU's chrF signature body, e.g. `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:podium-0.1.0`. */
export function chrfSignature(c: ChrfConfig, nrefs: number): string {
  return [
    `nrefs:${nrefs}`,
    `case:${c.lowercase ? 'lc' : 'mixed'}`,
    `eff:${c.epsSmoothing ? 'no' : 'yes'}`,
    `nc:${c.charOrder}`,
    `nw:${c.wordOrder}`,
    `space:${c.whitespace ? 'yes' : 'no'}`,
    `version:${PODIUM_METRICS_VERSION}`,
  ].join('|');
}

/** ASCII punctuation, Python's `string.punctuation`. */
const PUNCT = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/**
 * sacreBLEU's `_remove_punctuation` for chrF++ words: splits on whitespace, then detaches
 * one ASCII punctuation mark from the end (else from the start) of each multi-character word.
 * Example: `chrfWords('(hi) there!')` → `['(hi', ')', 'there', '!']`.
 */
export function chrfWords(sent: string): string[] {
  const out: string[] = [];
  for (const w of pySplit(sent)) {
    const cps = codePoints(w);
    if (cps.length === 1) {
      out.push(w);
      continue;
    }
    const last = w[w.length - 1];
    if (PUNCT.has(last)) {
      out.push(w.slice(0, -1), last);
    } else if (PUNCT.has(w[0])) {
      out.push(w[0], w.slice(1));
    } else {
      out.push(w);
    }
  }
  return out;
}


/** One side (hypothesis or reference) of a segment, as sorted n-gram keys per order. */
interface ChrfSide {
  keys: NgramKeys[];
}

/**
 * chrF sufficient statistics of one segment: `3·(nc+nw)` numbers
 * `[hyp_1, ref_1, match_1, …]` for char orders 1..nc then word orders 1..nw.
 * Example (nc=1, nw=0): `chrfStats(c, 'ab', ['ac'])` → `[2, 2, 1]`.
 */
export function chrfStats(c: ChrfConfig, hypothesis: string, references: readonly string[]): number[] {
  const hyp = c.lowercase ? hypothesis.toLowerCase() : hypothesis;
  const refs = c.lowercase ? references.map((r) => r.toLowerCase()) : references;
  const texts = [hyp, ...refs];
  const seqs = charIdSequences(texts, c.whitespace);
  if (refs.length === 1 && c.charOrder > 0 && seqs.base <= maxBase(c.charOrder)) {
    // Fast path: one reference, exact numeric keys, no per-order allocations.
    const [h, r] = seqs.idSeqs;
    const matches = clippedMatches(h, r, c.charOrder, seqs.base);
    const stats: number[] = [];
    for (let n = 1; n <= c.charOrder; n++) {
      const nh = Math.max(0, h.length - n + 1);
      const nr = Math.max(0, r.length - n + 1);
      stats.push(nr > 0 ? nh : 0, nr, matches[n - 1]);
    }
    if (c.wordOrder > 0) {
      const [hw, rw] = wordNgramSides(c.wordOrder, chrfWords(hyp), [chrfWords(refs[0])]);
      for (let i = 0; i < c.wordOrder; i++) {
        const rc = rw.keys[i].length;
        stats.push(rc > 0 ? hw.keys[i].length : 0, rc, sortedIntersectionSize(hw.keys[i], rw.keys[i]));
      }
    }
    return stats;
  }
  const charSides = charNgramSides(c.charOrder, texts, c.whitespace, seqs);

  let wordSides: ChrfSide[] | undefined;
  if (c.wordOrder > 0) {
    const hypWords = chrfWords(hyp);
    const refWords = refs.map(chrfWords);
    wordSides = wordNgramSides(c.wordOrder, hypWords, refWords);
  }

  const order = c.charOrder + c.wordOrder;
  let best: number[] = [];
  let bestF = -1.0;
  for (let k = 0; k < refs.length; k++) {
    const stats = new Array<number>(3 * order);
    let o = 0;
    const addOrders = (h: ChrfSide, r: ChrfSide, n: number) => {
      for (let i = 0; i < n; i++) {
        const hk = h.keys[i];
        const rk = r.keys[i];
        const refCount = rk.length;
        stats[3 * o] = refCount > 0 ? hk.length : 0;
        stats[3 * o + 1] = refCount;
        stats[3 * o + 2] = sortedIntersectionSize(hk, rk);
        o++;
      }
    };
    addOrders(charSides[0], charSides[k + 1], c.charOrder);
    if (wordSides) addOrders(wordSides[0], wordSides[k + 1], c.wordOrder);
    const f = chrfFromStats(stats, c);
    if (f > bestF) {
      bestF = f;
      best = stats;
    }
  }
  return best;
}

/** Maps several id-able sequences to shared small ids and returns their sorted n-gram keys. */
function sidesFor<T extends number | string>(
  seqs: readonly (readonly T[])[],
  maxOrder: number,
  asStrings: (seq: readonly T[]) => string[],
  sep: string,
): ChrfSide[] {
  const vocab = new Map<T, number>();
  const idSeqs = seqs.map((seq) => {
    const ids = new Int32Array(seq.length);
    for (let i = 0; i < seq.length; i++) {
      let id = vocab.get(seq[i]);
      if (id === undefined) {
        id = vocab.size + 1;
        vocab.set(seq[i], id);
      }
      ids[i] = id;
    }
    return ids;
  });
  const base = vocab.size + 1;
  if (maxOrder === 0) return seqs.map(() => ({ keys: [] }));
  if (base <= maxBase(maxOrder)) return idSeqs.map((ids) => ({ keys: numericNgramKeys(ids, maxOrder, base) }));
  return seqs.map((seq) => ({ keys: stringNgramKeys(asStrings(seq), maxOrder, sep) }));
}

// Scratch tables mapping BMP code units to per-segment ids; a stamp marks which entries
// belong to the current segment, so nothing is cleared between segments.
const charStamp = new Int32Array(0x10000);
const charId = new Int32Array(0x10000);
let stamp = 0;

/**
 * Character n-gram keys of several strings sharing one id space. Whitespace is dropped
 * unless `keepWhitespace` (sacreBLEU: `''.join(line.split())`); code points, not UTF-16
 * units, are the characters.
 */
function charIdSequences(texts: readonly string[], keepWhitespace: boolean): { idSeqs: Int32Array[]; base: number } {
  stamp++;
  if (stamp === 0x7fffffff) {
    charStamp.fill(0);
    stamp = 1;
  }
  let nextId = 1;
  let astral: Map<number, number> | undefined;
  const idSeqs: Int32Array[] = [];
  for (const text of texts) {
    const ids = new Int32Array(text.length);
    let len = 0;
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (!keepWhitespace && isPyWhitespace(cp)) continue;
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
          i++;
          astral ??= new Map();
          let id = astral.get(cp);
          if (id === undefined) {
            id = nextId++;
            astral.set(cp, id);
          }
          ids[len++] = id;
          continue;
        }
      }
      if (charStamp[cp] !== stamp) {
        charStamp[cp] = stamp;
        charId[cp] = nextId++;
      }
      ids[len++] = charId[cp];
    }
    idSeqs.push(ids.subarray(0, len));
  }
  return { idSeqs, base: nextId };
}

function charNgramSides(maxOrder: number, texts: readonly string[], keepWhitespace: boolean, seqs?: { idSeqs: Int32Array[]; base: number }): ChrfSide[] {
  const { idSeqs, base } = seqs ?? charIdSequences(texts, keepWhitespace);
  if (maxOrder === 0) return texts.map(() => ({ keys: [] }));
  if (base <= maxBase(maxOrder)) return idSeqs.map((ids) => ({ keys: numericNgramKeys(ids, maxOrder, base) }));
  // Too many distinct characters for exact numeric keys: fall back to substrings.
  return texts.map((text) => {
    const chars = codePoints(keepWhitespace ? text : removeWhitespace(text)).map((cp) => String.fromCodePoint(cp));
    return { keys: stringNgramKeys(chars, maxOrder, '') };
  });
}

function wordNgramSides(maxOrder: number, hyp: string[], refs: string[][]): ChrfSide[] {
  // Word n-grams are `' '.join(tokens[i:i+n])` in sacreBLEU.
  return sidesFor([hyp, ...refs], maxOrder, (seq) => [...seq], ' ');
}

/**
 * sacreBLEU's `CHRF._compute_f_score` on a statistics row (0–100).
 * Example (nc=1): `chrfFromStats([2, 2, 1], {charOrder: 1, wordOrder: 0, beta: 2, …})` → 50.
 */
export function chrfFromStats(stats: readonly number[], c: Pick<ChrfConfig, 'charOrder' | 'wordOrder' | 'beta' | 'epsSmoothing'>): number {
  const eps = 1e-16;
  const order = c.charOrder + c.wordOrder;
  const factor = c.beta ** 2;
  let score = 0.0;
  let effectiveOrder = 0;
  let avgPrec = 0.0;
  let avgRec = 0.0;
  for (let i = 0; i < order; i++) {
    const nHyp = stats[3 * i];
    const nRef = stats[3 * i + 1];
    const nMatch = stats[3 * i + 2];
    const prec = nHyp > 0 ? nMatch / nHyp : eps;
    const rec = nRef > 0 ? nMatch / nRef : eps;
    const denom = factor * prec + rec;
    score += denom > 0 ? ((1 + factor) * prec * rec) / denom : eps;
    if (nHyp > 0 && nRef > 0) {
      avgPrec += prec;
      avgRec += rec;
      effectiveOrder += 1;
    }
  }
  if (c.epsSmoothing) return (100 * score) / order;
  if (effectiveOrder === 0) {
    avgPrec = 0.0;
    avgRec = 0.0;
  } else {
    avgPrec /= effectiveOrder;
    avgRec /= effectiveOrder;
  }
  if (avgPrec + avgRec) {
    let s = (1 + factor) * avgPrec * avgRec;
    s /= factor * avgPrec + avgRec;
    return 100 * s;
  }
  return 0.0;
}
