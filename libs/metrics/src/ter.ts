/**
 * TER exactly as sacreBLEU 2.x computes it (sacrebleu/metrics/ter.py, lib_ter.py, after
 * Snover et al., 2006 and tercom): edit distance with block shifts, found greedily with
 * tercom's heuristics (max shift size 10, max shift distance 50, beam 25 around the
 * length-scaled diagonal, at most 1000 shift candidates per segment).
 *
 * Statistics per segment: `[edits, refLength]` — the fewest edits over the references and
 * the average reference length. Score: `100 · Σ edits / Σ refLength`.
 */
import { MetricInputError } from './errors';
import { pyRstrip, pySplit } from './text';
import { PODIUM_METRICS_VERSION } from './version';

/** Fully resolved TER options (sacreBLEU's `TER(...)` arguments). */
export interface TerConfig {
  normalized: boolean;
  noPunct: boolean;
  asianSupport: boolean;
  caseSensitive: boolean;
}

/**
 * Fills sacreBLEU's TER defaults (case-insensitive, no normalisation) and validates; throws
 * {@link MetricInputError}. Example: `resolveTerConfig({ lowercase: false }).caseSensitive` → true.
 */
export function resolveTerConfig(o: {
  tokenize?: string;
  lowercase?: boolean;
  normalized?: boolean;
  noPunct?: boolean;
  asianSupport?: boolean;
  caseSensitive?: boolean;
}): TerConfig {
  if (o.tokenize !== undefined && o.tokenize !== 'tercom') {
    throw new MetricInputError(`TER uses its own tokenizer 'tercom' (got '${o.tokenize}'); use normalized/noPunct/asianSupport instead`);
  }
  if (o.lowercase !== undefined && o.caseSensitive !== undefined && o.lowercase === o.caseSensitive) {
    throw new MetricInputError('TER options lowercase and caseSensitive contradict each other');
  }
  return {
    normalized: o.normalized ?? false,
    noPunct: o.noPunct ?? false,
    asianSupport: o.asianSupport ?? false,
    caseSensitive: o.caseSensitive ?? (o.lowercase === undefined ? false : !o.lowercase),
  };
}

/** sacreBLEU's TER signature body, e.g. `nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:podium-0.1.0`. */
export function terSignature(c: TerConfig, nrefs: number): string {
  const yn = (b: boolean) => (b ? 'yes' : 'no');
  return [
    `nrefs:${nrefs}`,
    `case:${c.caseSensitive ? 'mixed' : 'lc'}`,
    'tok:tercom',
    `norm:${yn(c.normalized)}`,
    `punct:${yn(!c.noPunct)}`,
    `asian:${yn(c.asianSupport)}`,
    `version:${PODIUM_METRICS_VERSION}`,
  ].join('|');
}

const RE_TER_PUNCT = /([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])/g;
const ASIAN_PUNCT = /([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])/g;
const FULL_WIDTH_PUNCT = /([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])/g;

function normalizeGeneralAndWestern(sent: string): string {
  sent = sent.replace(/\n-/g, '').replace(/\n/g, ' ');
  sent = sent.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  sent = ` ${sent} `;
  sent = sent.replace(RE_TER_PUNCT, ' $1 ');
  sent = sent.replace(/'s /g, " 's ").replace(/'s$/, " 's");
  sent = sent.replace(/([^0-9])([.,])/g, '$1 $2 ');
  sent = sent.replace(/([.,])([^0-9])/g, ' $1 $2');
  sent = sent.replace(/([0-9])(-)/g, '$1 $2 ');
  return sent;
}

function normalizeAsian(sent: string): string {
  sent = sent.replace(/([\u4e00-\u9fff\u3400-\u4dbf])/g, ' $1 ');
  sent = sent.replace(/([\u31c0-\u31ef\u2e80-\u2eff])/g, ' $1 ');
  sent = sent.replace(/([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])/g, ' $1 ');
  sent = sent.replace(/([\u3200-\u3f22])/g, ' $1 ');
  // sacreBLEU's kana rules: the inner '^' only ever matches at the start of the string.
  sent = sent.replace(/(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])/g, '$1 $2 ');
  sent = sent.replace(/(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])/g, '$1 $2 ');
  sent = sent.replace(/(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])/g, '$1 $2 ');
  sent = sent.replace(ASIAN_PUNCT, ' $1 ');
  sent = sent.replace(FULL_WIDTH_PUNCT, ' $1 ');
  return sent;
}

/**
 * sacreBLEU's `TercomTokenizer` followed by `split()`: lowercases unless case-sensitive,
 * optionally normalises (tercom's Western and Asian rules) and removes punctuation.
 * Example: `terTokens(cfg, 'Hello, World!')` → `['hello,', 'world!']` with default options.
 */
export function terTokens(c: TerConfig, line: string): string[] {
  let sent = pyRstrip(line);
  if (!sent) return [];
  if (!c.caseSensitive) sent = sent.toLowerCase();
  if (c.normalized) {
    sent = normalizeGeneralAndWestern(sent);
    if (c.asianSupport) sent = normalizeAsian(sent);
  }
  if (c.noPunct) {
    sent = sent.replace(/[.,?:;!"()]/g, '');
    if (c.asianSupport) sent = sent.replace(ASIAN_PUNCT, '').replace(FULL_WIDTH_PUNCT, '');
  }
  return pySplit(sent);
}

const MAX_SHIFT_SIZE = 10;
const MAX_SHIFT_DIST = 50;
const BEAM_WIDTH = 25;
const MAX_CACHE_SIZE = 10000;
const MAX_SHIFT_CANDIDATES = 1000;
// sacreBLEU uses int(1e16); any value above every reachable distance behaves the same, because a
// cell is only overwritten by a strictly smaller cost and INF + 1 is never smaller than INF.
const INF = 0x3fffffff;
const NO_ALIGN = -2;

const OP_NOP = 0;
const OP_SUB = 1;
const OP_INS = 2;
const OP_DEL = 3;
const OP_UNDEF = 4;

interface Row {
  cost: Int32Array;
  op: Uint8Array;
}
interface CacheNode {
  next: Map<number, CacheNode>;
  row: Row | undefined;
}

/**
 * sacreBLEU's `BeamEditDistance`: word-level Levenshtein distance to a fixed reference,
 * restricted to a beam around the diagonal, with a prefix cache of matrix rows and the
 * trace of edit operations (ties prefer match/substitution, then deletion, then insertion).
 */
class BeamEditDistance {
  private readonly nRef: number;
  private readonly initial: Row;
  private readonly cache: CacheNode = { next: new Map(), row: undefined };
  private cacheSize = 0;

  constructor(private readonly ref: Int32Array) {
    this.nRef = ref.length;
    const cost = new Int32Array(this.nRef + 1);
    const op = new Uint8Array(this.nRef + 1).fill(OP_INS);
    for (let j = 0; j <= this.nRef; j++) cost[j] = j;
    this.initial = { cost, op };
  }

  /** Edit distance and trace (array of ops, hypothesis → reference). */
  run(hyp: Int32Array, wantTrace: boolean): { distance: number; trace: Uint8Array | undefined } {
    const nH = hyp.length;
    const nRef = this.nRef;
    const rows: Row[] = [this.initial];
    let node = this.cache;
    for (let i = 0; i < nH; i++) {
      const next = node.next.get(hyp[i]);
      if (next === undefined || next.row === undefined) break;
      rows.push(next.row);
      node = next;
    }
    const startH = rows.length - 1;
    const lengthRatio = nH ? nRef / nH : 1;
    const beamWidth = BEAM_WIDTH < lengthRatio / 2 ? Math.ceil(lengthRatio / 2 + BEAM_WIDTH) : BEAM_WIDTH;
    const ref = this.ref;
    for (let i = startH + 1; i <= nH; i++) {
      const cost = new Int32Array(nRef + 1).fill(INF);
      const op = new Uint8Array(nRef + 1).fill(OP_UNDEF);
      const prev = rows[i - 1];
      const pc = prev.cost;
      const pseudoDiag = Math.floor(i * lengthRatio);
      const minJ = Math.max(0, pseudoDiag - beamWidth);
      let maxJ = Math.min(nRef + 1, pseudoDiag + beamWidth);
      if (i === nH) maxJ = nRef + 1;
      const w = hyp[i - 1];
      for (let j = minJ; j < maxJ; j++) {
        if (j === 0) {
          cost[0] = pc[0] + 1;
          op[0] = OP_DEL;
        } else {
          let best = cost[j];
          let bestOp = op[j];
          const sub = w === ref[j - 1] ? 0 : 1;
          const c1 = pc[j - 1] + sub;
          if (best > c1) {
            best = c1;
            bestOp = sub === 0 ? OP_NOP : OP_SUB;
          }
          const c2 = pc[j] + 1;
          if (best > c2) {
            best = c2;
            bestOp = OP_DEL;
          }
          const c3 = cost[j - 1] + 1;
          if (best > c3) {
            best = c3;
            bestOp = OP_INS;
          }
          cost[j] = best;
          op[j] = bestOp;
        }
      }
      rows.push({ cost, op });
    }
    this.addCache(hyp, rows, startH);

    let trace: Uint8Array | undefined;
    if (wantTrace) {
      const ops: number[] = [];
      let i = nH;
      let j = nRef;
      while (i > 0 || j > 0) {
        const o = rows[i].op[j];
        ops.push(o);
        if (o === OP_SUB || o === OP_NOP) {
          i--;
          j--;
        } else if (o === OP_INS) j--;
        else if (o === OP_DEL) i--;
        else throw new Error('TER: undefined edit operation in trace');
      }
      ops.reverse();
      trace = Uint8Array.from(ops);
    }
    return { distance: rows[nH].cost[nRef], trace };
  }

  private addCache(hyp: Int32Array, rows: Row[], startH: number): void {
    if (this.cacheSize >= MAX_CACHE_SIZE) return;
    let node = this.cache;
    for (let i = 0; i < hyp.length; i++) {
      let next = node.next.get(hyp[i]);
      if (next === undefined) {
        next = { next: new Map(), row: undefined };
        node.next.set(hyp[i], next);
      }
      if (next.row === undefined && i + 1 > startH) {
        next.row = rows[i + 1];
        this.cacheSize++;
      }
      node = next;
    }
  }
}

/** sacreBLEU's `_perform_shift`: moves `words[start:start+length]` to before position `target`. */
function performShift(words: Int32Array, start: number, length: number, target: number): Int32Array {
  const out = new Int32Array(words.length);
  let k = 0;
  const copy = (from: number, to: number) => {
    for (let i = from; i < to; i++) out[k++] = words[i];
  };
  const n = words.length;
  if (target < start) {
    copy(0, target);
    copy(start, start + length);
    copy(target, start);
    copy(start + length, n);
  } else if (target > start + length) {
    copy(0, start);
    copy(start + length, target);
    copy(start, start + length);
    copy(target, n);
  } else {
    copy(0, start);
    copy(start + length, Math.min(n, length + target));
    copy(start, start + length);
    copy(length + target, n);
  }
  return out;
}

/** One round of sacreBLEU's `_shift`: the best shift and the updated candidate count. */
function bestShift(
  wordsH: Int32Array,
  wordsR: Int32Array,
  ed: BeamEditDistance,
  checked: number,
): { delta: number; words: Int32Array; checked: number } {
  const { distance: preScore, trace } = ed.run(wordsH, true);
  const nH = wordsH.length;
  const nR = wordsR.length;
  // Flip the trace (insertions <-> deletions) and align reference positions to hypothesis positions.
  // align[r] = hypothesis position aligned to reference position r; -1 is a valid value
  // (before the first hypothesis word), so "unset" is NO_ALIGN.
  const align = new Int32Array(nR).fill(NO_ALIGN);
  const hypErr = new Int32Array(nH + 1); // prefix sums
  const refErr = new Int32Array(nR + 1);
  let posH = -1;
  let posR = -1;
  for (const o of trace as Uint8Array) {
    if (o === OP_NOP || o === OP_SUB) {
      posH++;
      posR++;
      align[posR] = posH;
      const e = o === OP_SUB ? 1 : 0;
      hypErr[posH + 1] = hypErr[posH] + e;
      refErr[posR + 1] = refErr[posR] + e;
    } else if (o === OP_DEL) {
      // flipped: an insertion when rewriting the reference into the hypothesis
      posH++;
      hypErr[posH + 1] = hypErr[posH] + 1;
    } else {
      // OP_INS flipped into a deletion
      posR++;
      align[posR] = posH;
      refErr[posR + 1] = refErr[posR] + 1;
    }
  }

  let best: { score: number; length: number; negStart: number; negIdx: number; words: Int32Array } | undefined;
  outer: for (let startH = 0; startH < nH; startH++) {
    for (let startR = 0; startR < nR; startR++) {
      if (Math.abs(startR - startH) > MAX_SHIFT_DIST) continue;
      let length = 0;
      while (wordsH[startH + length] === wordsR[startR + length] && length < MAX_SHIFT_SIZE) {
        length++;
        // candidate (startH, startR, length)
        const consumed = nH === startH + length || nR === startR + length;
        if (
          hypErr[startH + length] - hypErr[startH] !== 0 &&
          refErr[startR + length] - refErr[startR] !== 0 &&
          !(startH <= align[startR] && align[startR] < startH + length)
        ) {
          let prevIdx = -1;
          for (let offset = -1; offset < length; offset++) {
            let idx: number;
            if (startR + offset === -1) idx = 0;
            else if (startR + offset < nR && align[startR + offset] !== NO_ALIGN) idx = align[startR + offset] + 1;
            else break;
            if (idx === prevIdx) continue;
            prevIdx = idx;
            const shifted = performShift(wordsH, startH, length, idx);
            const score = preScore - ed.run(shifted, false).distance;
            checked++;
            if (
              best === undefined ||
              score > best.score ||
              (score === best.score &&
                (length > best.length ||
                  (length === best.length &&
                    (-startH > best.negStart || (-startH === best.negStart && -idx > best.negIdx)))))
            ) {
              best = { score, length, negStart: -startH, negIdx: -idx, words: shifted };
            }
          }
          if (checked >= MAX_SHIFT_CANDIDATES) break outer;
        }
        if (consumed) break;
      }
    }
  }
  if (best === undefined) return { delta: 0, words: wordsH, checked };
  return { delta: best.score, words: best.words, checked };
}

/**
 * sacreBLEU's `translation_edit_rate` on word-id arrays: `[edits, refLength]`, edits being
 * the number of shifts plus the edit distance after shifting.
 */
function translationEditRate(wordsH: Int32Array, wordsR: Int32Array): [number, number] {
  if (wordsR.length === 0) return [wordsH.length, 0];
  const ed = new BeamEditDistance(wordsR);
  let shifts = 0;
  let input = wordsH;
  let checked = 0;
  for (;;) {
    const r = bestShift(input, wordsR, ed, checked);
    checked = r.checked;
    if (checked >= MAX_SHIFT_CANDIDATES) break;
    if (r.delta <= 0) break;
    shifts++;
    input = r.words;
  }
  return [shifts + ed.run(input, false).distance, wordsR.length];
}

/**
 * Number of edits (shifts + insertions + deletions + substitutions) turning `hyp` into
 * `ref`, both already tokenized, and the reference length, as sacreBLEU's
 * `translation_edit_rate`. Example: `terEdits(['b','a'], ['a','b'])` → `[1, 2]` (one shift).
 */
export function terEdits(hyp: readonly string[], ref: readonly string[]): [number, number] {
  const vocab = new Map<string, number>();
  const ids = (ws: readonly string[]) =>
    Int32Array.from(ws, (w) => {
      let id = vocab.get(w);
      if (id === undefined) {
        id = vocab.size;
        vocab.set(w, id);
      }
      return id;
    });
  return translationEditRate(ids(hyp), ids(ref));
}

/**
 * TER sufficient statistics of one segment: `[fewest edits over references, average reference length]`.
 * Example: `terStats(cfg, 'a b c', ['a b d'])` → `[1, 3]`.
 */
export function terStats(c: TerConfig, hyp: string, refs: readonly string[]): number[] {
  const h = terTokens(c, hyp);
  let refLengths = 0;
  let bestEdits = 1e16;
  for (const ref of refs) {
    const [edits, refLen] = terEdits(h, terTokens(c, ref));
    refLengths += refLen;
    if (edits < bestEdits) bestEdits = edits;
  }
  return [bestEdits, refLengths / refs.length];
}

/**
 * sacreBLEU's `TER._compute_score_from_stats`: `100 · edits / refLength`; 100 when the
 * references are empty and the hypothesis is not, 0 when both are empty.
 */
export function terFromStats(stats: readonly number[]): number {
  const [edits, refLen] = stats;
  let s: number;
  if (refLen > 0) s = edits / refLen;
  else if (edits > 0) s = 1.0;
  else s = 0.0;
  return 100 * s;
}
