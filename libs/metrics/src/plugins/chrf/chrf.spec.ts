// Expected values are computed by hand from sacreBLEU 2.x's chrF definition
// (sacrebleu/metrics/chrf.py: whitespace-free character n-grams, effective-order averaging of
// precision and recall, F_beta with beta = 2; Popović 2015/2017); the arithmetic is in each name.
import { PODIUM_METRICS_VERSION, chrfFromStats, chrfStats, chrfWords, getMetric, resolveChrfConfig, score } from '../../index';

const V = PODIUM_METRICS_VERSION;
const nc2 = resolveChrfConfig({ charOrder: 2 }, false);

describe('chrF statistics', () => {
  it('counts character n-grams without whitespace: abc vs abd → 1-grams 3/3/2, 2-grams 2/2/1', () => {
    expect(chrfStats(nc2, 'abc', ['abd'])).toEqual([3, 3, 2, 2, 2, 1]);
    expect(chrfStats(nc2, 'a bc', ['ab d'])).toEqual([3, 3, 2, 2, 2, 1]);
  });
  it('keeps spaces as characters with whitespace: true', () => {
    const ws = resolveChrfConfig({ charOrder: 1, whitespace: true }, false);
    expect(chrfStats(ws, 'a b', ['ab'])).toEqual([3, 2, 2]);
  });
  it('reports no hypothesis n-grams for an order the reference lacks', () => {
    // 'abc' vs 'a': the reference has no bigram, so the hypothesis count is 0 (sacreBLEU).
    expect(chrfStats(nc2, 'abc', ['a'])).toEqual([3, 1, 1, 0, 0, 0]);
  });
  it('keeps the statistics of the reference with the best sentence chrF', () => {
    expect(chrfStats(nc2, 'abc', ['xyz', 'abc'])).toEqual([3, 3, 3, 2, 2, 2]);
  });
  it('counts code points, so an emoji is one character', () => {
    expect(chrfStats(resolveChrfConfig({ charOrder: 1 }, false), '😀a', ['😀b'])).toEqual([2, 2, 1]);
  });
});

describe('chrF scores', () => {
  it('gives 58.333 for abc vs abd with nc=2: P = R = (2/3 + 1/2)/2 = 7/12', () => {
    expect(chrfFromStats([3, 3, 2, 2, 2, 1], nc2)).toBeCloseTo((100 * 7) / 12, 9);
  });
  it('averages only orders both sides have (effective order): a vs abc → F2 = 5·1·⅓/(4 + ⅓) = 38.46', () => {
    expect(score('chrf', {}, ['a'], [['abc']]).corpus).toBeCloseTo(38.46153846153846, 9);
  });
  it('gives 100 for an identical segment and 0 for disjoint ones', () => {
    expect(score('chrf', {}, ['hello world'], [['hello world']]).corpus).toBeCloseTo(100, 9);
    expect(score('chrf', {}, ['abc'], [['xyz']]).corpus).toBe(0);
  });
  it('sums statistics over segments for the corpus score', () => {
    const s = score('chrf', { charOrder: 2 }, ['abc', 'xy'], [['abd', 'xy']]);
    // summed row [5,5,4, 3,3,2]: P = R = (4/5 + 2/3)/2.
    expect(s.corpus).toBeCloseTo(100 * ((4 / 5 + 2 / 3) / 2), 9);
  });
  it('applies eps smoothing as chrF++.py when epsSmoothing is set (signature eff:no)', () => {
    const m = getMetric('chrf', { charOrder: 2, epsSmoothing: true });
    // F per order: (2/3, 1/2) → mean 7/12.
    expect(m.sentenceFromStats([3, 3, 2, 2, 2, 1])).toBeCloseTo((100 * 7) / 12, 9);
    expect(m.signature).toContain('|eff:no|');
  });
});

describe('chrF++ words', () => {
  it('detaches one ASCII punctuation mark from the end, else from the start (sacreBLEU issue #124)', () => {
    expect(chrfWords('(hi) there!')).toEqual(['(hi', ')', 'there', '!']);
    expect(chrfWords('"quoted" , a')).toEqual(['"quoted', '"', ',', 'a']);
  });
  it('adds word unigrams and bigrams to the statistics (3·(6+2) numbers)', () => {
    const row = getMetric('chrf++').stats('the cat', ['the cat']);
    expect(row).toHaveLength(24);
    expect(row.slice(18)).toEqual([2, 2, 2, 1, 1, 1]);
  });
});

describe('chrF signatures', () => {
  it("prints sacreBLEU's fields for chrF and chrF++", () => {
    expect(getMetric('chrf').signature).toBe(`chrf|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:${V}`);
    expect(getMetric('chrf++', { lowercase: true, whitespace: true }, 2).signature).toBe(
      `chrf++|nrefs:2|case:lc|eff:yes|nc:6|nw:2|space:yes|version:${V}`,
    );
  });
});

describe('chrF on text with many distinct characters', () => {
  it('counts exactly with 600 distinct characters (hashed n-grams have no vocabulary limit)', () => {
    // 600 distinct CJK characters; the hypothesis drops the last one: for order n the
    // hypothesis has 600−n n-grams, the reference 601−n, all hypothesis n-grams match.
    const ref = Array.from({ length: 600 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    const hyp = ref.slice(0, -1);
    const row = getMetric('chrf').stats(hyp, [ref]);
    const expected: number[] = [];
    for (let n = 1; n <= 6; n++) expected.push(600 - n, 601 - n, 600 - n);
    expect(row).toEqual(expected);
  });
});

