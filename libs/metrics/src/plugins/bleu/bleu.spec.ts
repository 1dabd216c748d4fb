// Expected values are computed by hand from sacreBLEU 2.x's BLEU definition
// (sacrebleu/metrics/bleu.py: clipped n-gram counts, closest reference length, smoothing as
// Chen & Cherry 2014); the arithmetic is shown next to each number.
import { defined } from '../../../../../test/support/defined';
import { PODIUM_METRICS_VERSION, bleuFromStats, bleuStatsFromTokens, closestRefLength, getMetric, score } from '../../index';

const V = PODIUM_METRICS_VERSION;
const HYP = 'the cat sat on the mat';
const REF = 'the cat is on the mat';
// Statistics: unigrams 5/6 (the×2, cat, on, mat), bigrams 3/5 (the cat, on the, the mat),
// trigrams 1/4 (on the mat), 4-grams 0/3; both lengths 6.
const ROW = [6, 6, 5, 3, 1, 0, 6, 5, 4, 3];

describe('BLEU sufficient statistics', () => {
  it('counts clipped n-gram matches and totals per order', () => {
    expect(getMetric('bleu').stats(HYP, [REF])).toEqual(ROW);
  });
  it('clips by the maximum count of each n-gram over several references', () => {
    // hyp a b c d; refs "a b x y" and "x y c d": unigrams 4/4, bigrams {ab, cd} 2/3, 0/2, 0/1.
    expect(bleuStatsFromTokens(['a', 'b', 'c', 'd'], [['a', 'b', 'x', 'y'], ['x', 'y', 'c', 'd']], 4)).toEqual([4, 4, 4, 2, 0, 0, 4, 3, 2, 1]);
  });
  it('takes the closest reference length, the shorter one on ties', () => {
    expect(closestRefLength(5, [3, 7])).toBe(3);
    expect(closestRefLength(5, [7, 3])).toBe(3);
    expect(closestRefLength(5, [9, 6, 4])).toBe(4);
  });
});

describe('BLEU scores', () => {
  const opts = { smooth: 'exp' as const, maxNgramOrder: 4 };
  it('gives 37.9918 with exp smoothing: (83.33·60·25·(100/(2·3)))^(1/4)', () => {
    expect(bleuFromStats(ROW, opts, false)).toBeCloseTo(37.99178428257963, 9);
  });
  it('gives 25.4066 with floor smoothing 0.1: p4 = 100·0.1/3', () => {
    expect(bleuFromStats(ROW, { smooth: 'floor', maxNgramOrder: 4 }, false)).toBeCloseTo(25.40663740773073, 9);
  });
  it('gives 48.5492 with add-k (k=1) on orders 2–4: p = 4/6, 2/5, 1/4', () => {
    expect(bleuFromStats(ROW, { smooth: 'add-k', maxNgramOrder: 4 }, false)).toBeCloseTo(48.54917717073236, 9);
  });
  it('gives 0 without smoothing when an order has no match (log 0 := −9999999999)', () => {
    expect(bleuFromStats(ROW, { smooth: 'none', maxNgramOrder: 4 }, false)).toBe(0);
  });
  it('gives 0 when no n-gram matches at all', () => {
    expect(bleuFromStats([3, 3, 0, 0, 0, 0, 3, 2, 1, 0], opts, true)).toBe(0);
  });
  it('applies the brevity penalty exp(1 − r/c) when the hypothesis is shorter', () => {
    // 'the cat' vs 'the cat sat on': p1 = p2 = 100, effective order 2, BP = exp(1 − 4/2) = e^−1.
    const s = score('bleu', {}, ['the cat'], [['the cat sat on']]);
    expect(s.instances[0]).toBeCloseTo(100 * Math.exp(-1), 9);
  });
  it('scores a two-word exact match 100 at sentence level (effective order) but 0 at corpus level (eff:no)', () => {
    const s = score('bleu', {}, ['the cat'], [['the cat']]);
    expect(s.instances[0]).toBeCloseTo(100, 9);
    expect(s.corpus).toBe(0);
    expect(score('bleu', { effectiveOrder: true }, ['the cat'], [['the cat']]).corpus).toBeCloseTo(100, 9);
  });
  it('computes the corpus score from summed statistics, not from averaged sentence scores', () => {
    const hyps: [string, string] = [HYP, 'a b c d e'];
    const refs: [string, string] = [REF, 'a b c d e'];
    const m = getMetric('bleu');
    const second = m.stats(hyps[1], [refs[1]]);
    const sum = m.stats(hyps[0], [refs[0]]).map((x, i) => x + defined(second[i]));
    // Summed row [11,11,10,7,4,2,11,9,7,5] → (10/11·7/9·4/7·2/5)^(1/4)·100.
    expect(sum).toEqual([11, 11, 10, 7, 4, 2, 11, 9, 7, 5]);
    const expected = 100 * Math.pow((10 / 11) * (7 / 9) * (4 / 7) * (2 / 5), 1 / 4);
    expect(score('bleu', {}, hyps, [refs]).corpus).toBeCloseTo(expected, 9);
  });
  it('uses every reference: 45.18 with both references, 31.95 with the first alone', () => {
    // hyp a b c d: both refs → p = 100, 66.67, 25 (exp), 25 (exp); first ref → 50, 33.33, 25, 25.
    expect(score('bleu', {}, ['a b c d'], [['a b x y'], ['x y c d']]).corpus).toBeCloseTo(45.18010018049227, 9);
    expect(score('bleu', {}, ['a b c d'], [['a b x y']]).corpus).toBeCloseTo(31.947155212313625, 9);
  });
  it('gives the same score when a reference stream is repeated, with nrefs:2 in the signature', () => {
    const one = score('bleu', {}, [HYP], [[REF]]);
    const two = score('bleu', {}, [HYP], [[REF], [REF]]);
    expect(two.corpus).toBeCloseTo(one.corpus, 12);
    expect(two.signature).toBe(`bleu|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:${V}`);
  });
  it('lowercases before tokenizing when asked', () => {
    expect(score('bleu', {}, ['The Cat Sat On'], [['the cat sat on']]).corpus).toBe(0);
    expect(score('bleu', { lowercase: true }, ['The Cat Sat On'], [['the cat sat on']]).corpus).toBeCloseTo(100, 9);
  });
});

describe('BLEU signatures', () => {
  it("prints sacreBLEU's fields in sacreBLEU's order with our version", () => {
    expect(getMetric('bleu').signature).toBe(`bleu|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:${V}`);
    expect(getMetric('bleu').sentenceSignature).toBe(`bleu|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:${V}`);
  });
  it('adds the smoothing value with two decimals for floor and add-k', () => {
    expect(getMetric('bleu', { smooth: 'floor' }).signature).toContain('|smooth:floor[0.10]|');
    expect(getMetric('bleu', { smooth: 'add-k', smoothValue: 2 }).signature).toContain('|smooth:add-k[2.00]|');
    expect(getMetric('bleu', { smooth: 'none' }).signature).toContain('|smooth:none|');
  });
  it('records tokenizer, case and reference count', () => {
    expect(getMetric('bleu', { tokenize: 'intl', lowercase: true }, 3).signature).toBe(
      `bleu|nrefs:3|case:lc|eff:no|tok:intl|smooth:exp|version:${V}`,
    );
  });
});

describe('BLEU on very long segments', () => {
  it('falls back to string n-gram keys beyond ~9,700 distinct words and still counts exactly', () => {
    // 10,000 distinct words; the hypothesis changes the last one: matches 9999/10000, 9998/9999,
    // 9997/9998, 9996/9997 for orders 1–4, equal lengths.
    const ref = Array.from({ length: 10_000 }, (_, i) => `w${i}`);
    const hyp = [...ref.slice(0, -1), 'other'];
    const row = getMetric('bleu').stats(hyp.join(' '), [ref.join(' ')]);
    expect(row).toEqual([10_000, 10_000, 9999, 9998, 9997, 9996, 10_000, 9999, 9998, 9997]);
    const expected = 100 * Math.pow((9999 / 10000) * (9998 / 9999) * (9997 / 9998) * (9996 / 9997), 1 / 4);
    expect(score('bleu', {}, [hyp.join(' ')], [[ref.join(' ')]]).corpus).toBeCloseTo(expected, 9);
  });
});

