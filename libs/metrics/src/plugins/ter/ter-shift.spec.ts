/* eslint-disable @typescript-eslint/no-non-null-assertion -- a line-by-line port of sacreBLEU's TER loops; indices are bounded by them */
// An independent reference implementation, kept on purpose as this spec's test oracle for ter.ts (not a duplicate to merge).
// The TER shift search (ter.ts) reuses typed-array pools, a hashed trie and scratch buffers.
// This spec keeps the previous straightforward port of sacreBLEU 2.x's lib_ter.py (one
// Int32Array per matrix row, a Map per trie node, a fresh array per shift candidate), which
// reproduced the sacreBLEU 2.6.0 golden vectors, and checks that both give the same edit
// counts on random word sequences. Random inputs come from a fixed seed (mulberry32, seed below).
import { getMetric, resolveTerConfig, terEdits, terTokens } from '../../index';
import { mulberry32 } from '@podium/ranking'; // the project's one seeded PRNG

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
      const next = node.next.get(hyp[i]!);
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
      const prev = rows[i - 1]!;
      const pc = prev.cost;
      const pseudoDiag = Math.floor(i * lengthRatio);
      const minJ = Math.max(0, pseudoDiag - beamWidth);
      let maxJ = Math.min(nRef + 1, pseudoDiag + beamWidth);
      if (i === nH) maxJ = nRef + 1;
      const w = hyp[i - 1];
      for (let j = minJ; j < maxJ; j++) {
        if (j === 0) {
          cost[0] = pc[0]! + 1;
          op[0] = OP_DEL;
        } else {
          let best = cost[j]!;
          let bestOp = op[j]!;
          const sub = w === ref[j - 1] ? 0 : 1;
          const c1 = pc[j - 1]! + sub;
          if (best > c1) {
            best = c1;
            bestOp = sub === 0 ? OP_NOP : OP_SUB;
          }
          const c2 = pc[j]! + 1;
          if (best > c2) {
            best = c2;
            bestOp = OP_DEL;
          }
          const c3 = cost[j - 1]! + 1;
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
        const o = rows[i]!.op[j]!;
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
    return { distance: rows[nH]!.cost[nRef]!, trace };
  }

  private addCache(hyp: Int32Array, rows: Row[], startH: number): void {
    if (this.cacheSize >= MAX_CACHE_SIZE) return;
    let node = this.cache;
    for (let i = 0; i < hyp.length; i++) {
      let next = node.next.get(hyp[i]!);
      if (next === undefined) {
        next = { next: new Map(), row: undefined };
        node.next.set(hyp[i]!, next);
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
    for (let i = from; i < to; i++) out[k++] = words[i]!;
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
      hypErr[posH + 1] = hypErr[posH]! + e;
      refErr[posR + 1] = refErr[posR]! + e;
    } else if (o === OP_DEL) {
      // flipped: an insertion when rewriting the reference into the hypothesis
      posH++;
      hypErr[posH + 1] = hypErr[posH]! + 1;
    } else {
      // OP_INS flipped into a deletion
      posR++;
      align[posR] = posH;
      refErr[posR + 1] = refErr[posR]! + 1;
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
          hypErr[startH + length]! - hypErr[startH]! !== 0 &&
          refErr[startR + length]! - refErr[startR]! !== 0 &&
          !(startH <= align[startR]! && align[startR]! < startH + length)
        ) {
          let prevIdx = -1;
          for (let offset = -1; offset < length; offset++) {
            let idx: number;
            if (startR + offset === -1) idx = 0;
            else if (startR + offset < nR && align[startR + offset] !== NO_ALIGN) idx = align[startR + offset]! + 1;
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
function referenceTerEdits(hyp: readonly string[], ref: readonly string[]): [number, number] {
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

const SEED = 20261124;

function randomWords(rand: () => number, vocab: number, maxLen: number): string[] {
  const len = Math.floor(rand() * (maxLen + 1));
  return Array.from({ length: len }, () => `w${Math.floor(rand() * vocab)}`);
}

/** Fisher–Yates shuffle of a copy of `words`. */
function shuffled(rand: () => number, words: string[]): string[] {
  const out = words.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('TER shift search against the previous implementation', () => {
  it('gives the same edits on 800 random pairs over small vocabularies (many shifts)', () => {
    const rng = mulberry32(SEED);
    const rand = () => rng.next();
    for (let k = 0; k < 800; k++) {
      const vocab = 2 + Math.floor(rand() * 8);
      const ref = randomWords(rand, vocab, 30);
      // Half the hypotheses are shuffled references, so that shifts pay off.
      const hyp = rand() < 0.5 ? randomWords(rand, vocab, 30) : shuffled(rand, ref.map((w) => (rand() < 0.2 ? `w${Math.floor(rand() * vocab)}` : w)));
      expect([k, terEdits(hyp, ref)]).toEqual([k, referenceTerEdits(hyp, ref)]);
    }
  }, 60_000);
  it('gives the same edits on long segments that fill the 10,000-row cache and the 1,000-candidate limit', () => {
    const rng = mulberry32(SEED + 1);
    const rand = () => rng.next();
    for (let k = 0; k < 12; k++) {
      const ref = Array.from({ length: 60 + Math.floor(rand() * 60) }, () => `w${Math.floor(rand() * 6)}`);
      const hyp = ref.slice(Math.floor(rand() * 10)).concat(ref.slice(0, 10)).reverse().slice(0, ref.length - 5);
      expect([k, terEdits(hyp, ref)]).toEqual([k, referenceTerEdits(hyp, ref)]);
    }
  }, 60_000);
  it('gives the same edits when the reference is much longer than the hypothesis (wider beam)', () => {
    const rng = mulberry32(SEED + 2);
    const rand = () => rng.next();
    for (let k = 0; k < 50; k++) {
      const ref = Array.from({ length: 60 + Math.floor(rand() * 80) }, () => `w${Math.floor(rand() * 12)}`);
      const hyp = randomWords(rand, 12, 6);
      expect([k, terEdits(hyp, ref)]).toEqual([k, referenceTerEdits(hyp, ref)]);
    }
  });
});

describe('TER statistics from raw lines against the previous implementation', () => {
  const pieces = ['A', 'b', 'the', 'The', 'cat', ' ', ' ', '\u00a0', '\u3000', '.', ',', '!', '(', ')', '"', "'s", '1,000', '-', '2020-21',
    '&quot;', '\n', 'é', '😀', '日本', 'テスト', '。', '\uff0c'];
  const options = [{}, { caseSensitive: true }, { normalized: true }, { normalized: true, noPunct: true, asianSupport: true }];
  it.each(options.map((o) => [JSON.stringify(o), o]))('gives [fewest edits, average reference length] on 300 random segments (%s)', (_name, o) => {
    const rng = mulberry32(SEED + 3);
    const rand = () => rng.next();
    const text = () => Array.from({ length: Math.floor(rand() * 14) }, () => pieces[Math.floor(rand() * pieces.length)]).join(rand() < 0.5 ? ' ' : '');
    const c = resolveTerConfig(o);
    const m = getMetric('ter', o);
    for (let k = 0; k < 300; k++) {
      const hyp = text();
      const refs = Array.from({ length: 1 + (k % 3) }, text);
      const h = terTokens(c, hyp);
      const each = refs.map((r) => referenceTerEdits(h, terTokens(c, r)));
      const expected = [Math.min(...each.map((e) => e[0])), each.reduce((a, e) => a + e[1], 0) / refs.length];
      expect([k, m.stats(hyp, refs)]).toEqual([k, expected]);
    }
  });
});
