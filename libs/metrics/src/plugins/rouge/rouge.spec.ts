// Expected values: the rouge-score README example (github.com/google-research/google-research,
// rouge/README.md: RougeScorer(['rouge1', 'rougeL'], use_stemmer=True) on the quick-brown-fox
// pair prints rouge1 P 0.75 R 0.6667 F 0.7059 and rougeL P 0.625 R 0.5556 F 0.5882), the
// summary-level LCS example of Lin (2004, ROUGE, §3.2), Porter's (1980) and NLTK's stems,
// and hand-computed cases with the arithmetic in the test name.
import { getMetric, porterStem, rougeLsum, rougeScore, rougeTokens, score } from '../../index';

const TARGET = 'The quick brown fox jumps over the lazy dog';
const PREDICTION = 'The quick brown dog jumps on the log.';

describe('rouge-score README example (use_stemmer=True)', () => {
  it('gives rouge1 P 0.75, R 0.6667, F 0.7059', () => {
    const s = rougeScore('rouge1', { stem: true }, TARGET, PREDICTION);
    expect(s.precision).toBeCloseTo(0.75, 10);
    expect(s.recall).toBeCloseTo(0.6666666666666666, 10);
    expect(s.fmeasure).toBeCloseTo(0.7058823529411765, 10);
  });
  it('gives rougeL P 0.625, R 0.5556, F 0.5882', () => {
    const s = rougeScore('rougeL', { stem: true }, TARGET, PREDICTION);
    expect(s.precision).toBeCloseTo(0.625, 10);
    expect(s.recall).toBeCloseTo(0.5555555555555556, 10);
    expect(s.fmeasure).toBeCloseTo(0.5882352941176471, 10);
  });
  it('gives rouge2 P 2/7, R 2/8 (bigrams "the quick", "quick brown")', () => {
    const s = rougeScore('rouge2', { stem: true }, TARGET, PREDICTION);
    expect(s.precision).toBeCloseTo(2 / 7, 10);
    expect(s.recall).toBeCloseTo(2 / 8, 10);
    expect(s.fmeasure).toBeCloseTo((2 * (2 / 7) * (2 / 8)) / (2 / 7 + 2 / 8), 10);
  });
});

describe('rouge-score tokenizer', () => {
  it('lowercases and treats every non-[a-z0-9] run as a separator, dropping non-ASCII letters', () => {
    expect(rougeTokens('Hello, World! Ça va? 123-abc', false)).toEqual(['hello', 'world', 'a', 'va', '123', 'abc']);
  });
  it('stems only tokens longer than 3 characters', () => {
    expect(rougeTokens('running dogs ran', true)).toEqual(['run', 'dog', 'ran']);
    expect(rougeTokens('dies', true)).toEqual(['die']);
  });
  it('returns no tokens for an empty line', () => {
    expect(rougeTokens('', true)).toEqual([]);
  });
  it('drops emoji, CJK, Thai and combining marks entirely and splits URLs and numbers on punctuation', () => {
    expect(rougeTokens('Emoji 😀 and 中文 ไทย cafe\u0301 https://x.org/a-b 1,000.5', false)).toEqual([
      'emoji', 'and', 'cafe', 'https', 'x', 'org', 'a', 'b', '1', '000', '5',
    ]);
  });
});

describe('NLTK Porter stemmer (NLTK_EXTENSIONS mode, as rouge-score uses)', () => {
  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['ties', 'tie'],
    ['cats', 'cat'],
    ['agreed', 'agre'],
    ['plastered', 'plaster'],
    ['motoring', 'motor'],
    ['sized', 'size'],
    ['hopping', 'hop'],
    ['falling', 'fall'],
    ['filing', 'file'],
    ['happy', 'happi'],
    ['relational', 'relat'],
    ['generalization', 'gener'],
    ['dying', 'die'],
    ['lazy', 'lazi'],
    ['jumps', 'jump'],
  ])('stems %s to %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
});

describe('ROUGE scores', () => {
  it('matches stemmed forms only with stemming: running dogs vs run dog → rouge1 F 0 / 1', () => {
    expect(score('rouge1', {}, ['run dog'], [['running dogs']]).corpus).toBe(0);
    expect(score('rouge1', { stem: true }, ['run dog'], [['running dogs']]).corpus).toBeCloseTo(1, 12);
  });
  it('gives 0 for an empty prediction', () => {
    for (const m of ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const) expect(score(m, {}, [''], [['a b']]).corpus).toBe(0);
  });
  it("computes Lin's summary-level LCS example: union LCS {w1 w2 w3 w5} → R 4/5, P 4/10", () => {
    const r = rougeLsum([['w1', 'w2', 'w3', 'w4', 'w5']], [['w1', 'w2', 'w6', 'w7', 'w8'], ['w1', 'w3', 'w8', 'w9', 'w5']]);
    expect(r.recall).toBeCloseTo(0.8, 12);
    expect(r.precision).toBeCloseTo(0.4, 12);
    expect(r.fmeasure).toBeCloseTo((2 * 0.8 * 0.4) / 1.2, 12);
  });
  it('splits rougeLsum summaries on newlines and differs from rougeL when sentence order changes', () => {
    const ref = 'w1 w2 w3 w4 w5';
    const hyp = 'w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5';
    expect(score('rougeLsum', {}, [hyp], [[ref]]).corpus).toBeCloseTo((2 * 0.8 * 0.4) / 1.2, 12);
    // rougeL on the joined text: LCS w1 w2 w3 w5 = 4 → P 4/10, R 4/5 as well; swap sentences to separate them.
    const swapped = 'w1 w3 w8 w9 w5\nw1 w2 w6 w7 w8';
    expect(score('rougeLsum', {}, [swapped], [[ref]]).corpus).toBeCloseTo((2 * 0.8 * 0.4) / 1.2, 12);
    // rougeL: LCS of w1..w5 with "w1 w3 w8 w9 w5 w1 w2 w6 w7 w8" is 3 (w1 w3 w5 or w1 w2 …) → P 0.3, R 0.6.
    expect(score('rougeL', {}, [swapped], [[ref]]).corpus).toBeCloseTo((2 * 0.3 * 0.6) / 0.9, 12);
  });
  it('takes the reference with the highest F-measure (score_multi)', () => {
    expect(score('rouge1', {}, ['the cat'], [['completely different'], ['the cat']]).corpus).toBeCloseTo(1, 12);
    expect(getMetric('rouge1').stats('the cat', ['the dog', 'the cat sat'])).toEqual([1, 2 / 3, 0.8]);
  });
  it('averages instance F-measures for the corpus score, on a 0–1 scale', () => {
    const s = score('rouge1', {}, ['a b', 'c d'], [['a b', 'x y']]);
    expect(s.instances).toEqual([1, 0]);
    expect(s.corpus).toBeCloseTo(0.5, 12);
    expect(s.range).toEqual([0, 1]);
  });
});
