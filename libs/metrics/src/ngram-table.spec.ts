// The hashing kernels (ngram-table.ts, token-table.ts) against straightforward references kept
// here: n-grams as joined strings counted in Maps, exactly as sacreBLEU 2.x counts them
// (sacrebleu/metrics/helpers.py extract_all_char_ngrams / extract_all_word_ngrams, bleu.py
// clipping by the maximum reference count), on random input from a fixed seed (mulberry32).
// Strings mix ASCII, accented and astral characters, lone surrogates, Python whitespace
// (NBSP, U+3000, U+001C) and U+200B (not whitespace for Python), punctuation and 13a entities.
import {
  bleuStatsFromTokens,
  bleuTokens,
  chrfFromStats,
  chrfStats,
  chrfWords,
  closestRefLength,
  getMetric,
  pySplit,
  resolveBleuConfig,
  resolveChrfConfig,
  type BleuTokenizerName,
  type ChrfConfig,
} from './index';
import { defined } from '../../../test/support/defined';
import { mulberry32 } from '@podium/ranking'; // the project's one seeded PRNG
import { clippedMatches, clippedMatchesMaxRef } from './ngram-table';
import { beginTokenIds, tokenId } from './token-table';

const SEED = 20261124;

const PIECES = [
  'a', 'b', 'c', 'ab', 'the', 'cat', 'The', ' ', ' ', ' ', '  ', '.', ',', '!', '(', ')', '"', "'s", '-', '1', '0', '1,000',
  'é', 'É', 'ß', 'İ', 'ça', '😀', '𠀀', '\ud800', '\udc00', '\u00a0', '\u3000', '\u001c', '\u200b', '\t', '\n', '-\n',
  '&quot;', '&amp;', '<skipped>', '我', '。', '€', '…',
];

function randomText(rand: () => number, maxPieces: number): string {
  const n = Math.floor(rand() * (maxPieces + 1));
  let s = '';
  for (let i = 0; i < n; i++) s += defined(PIECES[Math.floor(rand() * PIECES.length)], 'a piece');
  return s;
}

/** Counts of the n-grams of `tokens` joined by `sep` (tokens hold no `sep`, so keys are unambiguous). */
function ngramCounts(tokens: readonly string[], n: number, sep: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const k = tokens.slice(i, i + n).join(sep);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

function clipped(hyp: Map<string, number>, ref: Map<string, number>): number {
  let s = 0;
  for (const [k, c] of hyp) s += Math.min(c, ref.get(k) ?? 0);
  return s;
}

/** sacreBLEU's chrF statistics, spelled out with string n-grams. */
function referenceChrfStats(c: ChrfConfig, hypothesis: string, references: readonly string[]): number[] {
  const prep = (s: string) => (c.lowercase ? s.toLowerCase() : s);
  // Python's ''.join(s.split()) on code points: a lone high surrogate before whitespace and a
  // lone low one after it stay two characters (joining the JS strings would pair them).
  const chars = (s: string) => (c.whitespace ? Array.from(s) : pySplit(s).flatMap((w) => Array.from(w)));
  const orders = (h: string[], r: string[], maxOrder: number, sep: string, stats: number[]) => {
    for (let n = 1; n <= maxOrder; n++) {
      const hc = Math.max(0, h.length - n + 1);
      const rc = Math.max(0, r.length - n + 1);
      stats.push(rc > 0 ? hc : 0, rc, clipped(ngramCounts(h, n, sep), ngramCounts(r, n, sep)));
    }
  };
  const hyp = prep(hypothesis);
  let best: number[] = [];
  let bestF = -1;
  for (const reference of references) {
    const ref = prep(reference);
    const stats: number[] = [];
    orders(chars(hyp), chars(ref), c.charOrder, '', stats);
    orders(chrfWords(hyp), chrfWords(ref), c.wordOrder, ' ', stats);
    const f = chrfFromStats(stats, c);
    if (f > bestF) {
      bestF = f;
      best = stats;
    }
  }
  return best;
}

/** sacreBLEU's BLEU statistics from tokens, spelled out with string n-grams and Maps. */
function referenceBleuStats(hyp: readonly string[], refs: readonly (readonly string[])[], maxOrder: number): number[] {
  const correct: number[] = [];
  const total: number[] = [];
  for (let n = 1; n <= maxOrder; n++) {
    const maxRef = new Map<string, number>();
    for (const r of refs) for (const [k, c] of ngramCounts(r, n, ' ')) maxRef.set(k, Math.max(c, maxRef.get(k) ?? 0));
    correct.push(refs.length ? clipped(ngramCounts(hyp, n, ' '), maxRef) : 0);
    total.push(Math.max(0, hyp.length - n + 1));
  }
  return [hyp.length, closestRefLength(hyp.length, refs.map((r) => r.length)), ...correct, ...total];
}

describe('clipped n-gram matches by hashing', () => {
  it('equals Σ min(count_hyp, count_ref) of string n-grams on 2,000 random id sequences', () => {
    const rng = mulberry32(SEED);
    const rand = () => rng.next();
    const out: number[] = [];
    for (let k = 0; k < 2000; k++) {
      const alphabet = 1 + Math.floor(rand() * (k % 3 === 0 ? 3 : 400));
      // Large ids included: the table takes any positive int32, e.g. astral code points + 1.
      const id = () => 1 + (rand() < 0.1 ? 0x10ffff - Math.floor(rand() * 5) : Math.floor(rand() * alphabet));
      const h = Array.from({ length: Math.floor(rand() * 60) }, id);
      const r = Array.from({ length: Math.floor(rand() * 60) }, id);
      const maxOrder = 1 + Math.floor(rand() * 6);
      clippedMatches(Int32Array.from(h), h.length, Int32Array.from(r), r.length, maxOrder, out);
      const expected = Array.from({ length: maxOrder }, (_, i) => clipped(ngramCounts(h.map(String), i + 1, ' '), ngramCounts(r.map(String), i + 1, ' ')));
      expect([k, out.slice(0, maxOrder)]).toEqual([k, expected]);
    }
  });
  it('reads only the given prefix of reused buffers', () => {
    const out: number[] = [];
    clippedMatches(Int32Array.from([1, 2, 9, 9]), 2, Int32Array.from([1, 2, 7]), 2, 2, out);
    expect(out).toEqual([2, 1]);
  });
  it('counts exactly on a segment of 20,000 tokens (the table grows)', () => {
    const rng = mulberry32(SEED + 1);
    const rand = () => rng.next();
    const h = Array.from({ length: 20_000 }, () => 1 + Math.floor(rand() * 50));
    const r = Array.from({ length: 20_000 }, () => 1 + Math.floor(rand() * 50));
    const out: number[] = [];
    clippedMatches(Int32Array.from(h), h.length, Int32Array.from(r), r.length, 4, out);
    const expected = [1, 2, 3, 4].map((n) => clipped(ngramCounts(h.map(String), n, ' '), ngramCounts(r.map(String), n, ' ')));
    expect(out).toEqual(expected);
  });
  it('clips by the maximum count over several references', () => {
    const rng = mulberry32(SEED + 2);
    const rand = () => rng.next();
    const out: number[] = [];
    for (let k = 0; k < 500; k++) {
      const id = () => 1 + Math.floor(rand() * 4);
      const h = Array.from({ length: Math.floor(rand() * 30) }, id);
      const refs = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => Array.from({ length: Math.floor(rand() * 30) }, id));
      clippedMatchesMaxRef(Int32Array.from(h), refs.map((r) => Int32Array.from(r)), 4, out);
      const row = referenceBleuStats(h.map(String), refs.map((r) => r.map(String)), 4);
      expect([k, out.slice(0, 4)]).toEqual([k, row.slice(2, 6)]);
    }
  });
});

describe('token ids by hashing spans', () => {
  it('gives equal ids exactly to equal strings, also past 1,000 distinct tokens in one segment', () => {
    beginTokenIds();
    const words = Array.from({ length: 3000 }, (_, i) => `t${i % 1500}`);
    const line = words.join(' ');
    const ids: number[] = [];
    let start = 0;
    for (const w of words) {
      ids.push(tokenId(line, start, start + w.length));
      start += w.length + 1;
    }
    for (let i = 0; i < 3000; i++) expect(ids[i]).toBe(ids[i % 1500]);
    expect(new Set(ids).size).toBe(1500);
    // A token given as a whole string gets the id of the same span of the line.
    expect(tokenId('t7', 0, 2)).toBe(ids[7]);
  });
});

describe('chrF and chrF++ statistics against string n-grams', () => {
  const configs: ReadonlyArray<[string, ChrfConfig]> = [
    ['chrF', resolveChrfConfig({}, false)],
    ['chrF++', resolveChrfConfig({}, true)],
    ['chrF++ lowercase', resolveChrfConfig({ lowercase: true }, true)],
    ['chrF whitespace', resolveChrfConfig({ whitespace: true }, false)],
    ['words only (nc=0, nw=3)', resolveChrfConfig({ charOrder: 0, wordOrder: 3 }, false)],
  ];
  it.each(configs)('matches on 1,000 random unicode segments with one to three references (%s)', (_name, c) => {
    const rng = mulberry32(SEED + 3);
    const rand = () => rng.next();
    for (let k = 0; k < 1000; k++) {
      const hyp = randomText(rand, 25);
      const refs = Array.from({ length: k % 4 === 0 ? 1 + Math.floor(rand() * 3) : 1 }, () => randomText(rand, 25));
      expect([k, chrfStats(c, hyp, refs)]).toEqual([k, referenceChrfStats(c, hyp, refs)]);
    }
  });
});

describe('BLEU statistics from raw lines against string n-grams', () => {
  const tokenizers: readonly BleuTokenizerName[] = ['13a', 'intl', 'zh', 'char', 'none'];
  it.each(tokenizers)('matches bleuTokens + Map counting on 1,000 random unicode segments (tok %s)', (tokenize) => {
    const rng = mulberry32(SEED + 4);
    const rand = () => rng.next();
    for (const lowercase of [false, true]) {
      const c = resolveBleuConfig({ tokenize, lowercase });
      const m = getMetric('bleu', { tokenize, lowercase });
      for (let k = 0; k < 500; k++) {
        const hyp = randomText(rand, 25);
        const refs = Array.from({ length: k % 4 === 0 ? 1 + Math.floor(rand() * 3) : 1 }, () => randomText(rand, 25));
        const expected = referenceBleuStats(bleuTokens(c, hyp), refs.map((r) => bleuTokens(c, r)), 4);
        expect([k, m.stats(hyp, refs)]).toEqual([k, expected]);
        expect([k, bleuStatsFromTokens(bleuTokens(c, hyp), refs.map((r) => bleuTokens(c, r)), 4)]).toEqual([k, expected]);
      }
    }
  });
});
