// Expected values are computed by hand from sacreBLEU 2.x's TER (sacrebleu/metrics/ter.py and
// lib_ter.py, after tercom / Snover et al. 2006), except where a golden value is cited.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PODIUM_METRICS_VERSION, getMetric, resolveTerConfig, score, terEdits, terTokens } from '../../index';

const V = PODIUM_METRICS_VERSION;
const split = (s: string) => s.split(' ');

describe('TER edits', () => {
  it('counts one substitution: a b c → a b d is 1 edit over 3 words', () => {
    expect(terEdits(split('a b c'), split('a b d'))).toEqual([1, 3]);
  });
  it('uses one shift instead of two substitutions: b a → a b', () => {
    expect(terEdits(split('b a'), split('a b'))).toEqual([1, 2]);
  });
  it('reproduces sacreBLEU on WMT17 C-3MA.4958 segment 73: 10 edits over 14 words (one shift of "are")', () => {
    // golden: test/golden/sacrebleu-wmt17-de-en.json, C-3MA.4958 ter sentence_first100[72] = 71.43 = 100·10/14
    const root = join(__dirname, '..', '..', '..', '..', '..');
    const golden = JSON.parse(readFileSync(join(root, 'test/golden/sacrebleu-wmt17-de-en.json'), 'utf8'));
    const hyp = 'the differences in energy and climate policy are clearer.';
    const ref = 'there are clearer differences to be seen in terms of energy and climate policies.';
    expect(terEdits(split(hyp), split(ref))).toEqual([10, 14]);
    expect(golden.systems['C-3MA.4958'].ter.sentence_first100[72]).toBeCloseTo((100 * 10) / 14, 9);
  });
  it('counts every hypothesis word as an edit against an empty reference', () => {
    expect(terEdits(split('a b'), [])).toEqual([2, 0]);
  });
});

describe('TER scores', () => {
  it('scores 100 for a non-empty hypothesis with an empty reference and 0 when both are empty', () => {
    expect(score('ter', {}, ['a b'], [['']]).corpus).toBe(100);
    expect(score('ter', {}, [''], [['']]).corpus).toBe(0);
  });
  it('takes the fewest edits over references and the average reference length: 1/3.5', () => {
    expect(score('ter', {}, ['a b c'], [['a b d'], ['a x y z']]).corpus).toBeCloseTo((100 * 1) / 3.5, 9);
  });
  it('is case-insensitive by default and case-sensitive on request', () => {
    expect(score('ter', {}, ['A B'], [['a b']]).corpus).toBe(0);
    expect(score('ter', { caseSensitive: true }, ['A B'], [['a b']]).corpus).toBe(100);
  });
  it('sums edits and reference lengths over the corpus: (1 + 0)/(3 + 2)', () => {
    expect(score('ter', {}, ['a b c', 'x y'], [['a b d', 'x y']]).corpus).toBeCloseTo(20, 9);
  });
  it('is lower-is-better with no upper bound', () => {
    const m = getMetric('ter');
    expect(m.higherIsBetter).toBe(false);
    expect(m.range).toEqual([0, Number.POSITIVE_INFINITY]);
    expect(score('ter', {}, ['a b c d'], [['x']]).corpus).toBe(400);
  });
});

describe('TER tokenizer (tercom)', () => {
  it('only lowercases and splits by default', () => {
    expect(terTokens(resolveTerConfig({}), 'Hello, World!')).toEqual(['hello,', 'world!']);
  });
  it("splits punctuation and possessive 's when normalized", () => {
    expect(terTokens(resolveTerConfig({ normalized: true }), "John's car, 1,000.5 km!")).toEqual(['john', "'s", 'car', ',', '1,000.5', 'km', '!']);
  });
  it('splits URL punctuation, keeps digit-grouped numbers and splits a dash after a digit when normalized', () => {
    expect(terTokens(resolveTerConfig({ normalized: true }), 'See https://a.org/x-y 2020-21')).toEqual([
      'see', 'https', ':', '/', '/', 'a', '.', 'org', '/', 'x-y', '2020', '-', '21',
    ]);
  });
  it('gives no tokens for an empty or blank line', () => {
    expect(terTokens(resolveTerConfig({ normalized: true }), '   ')).toEqual([]);
  });
  it('removes . , ? : ; ! " ( ) with noPunct', () => {
    expect(terTokens(resolveTerConfig({ noPunct: true }), 'Hello, (World)!')).toEqual(['hello', 'world']);
  });
  it('splits CJK ideographs but, like sacreBLEU, not katakana away from the string start, with asianSupport', () => {
    expect(terTokens(resolveTerConfig({ normalized: true, asianSupport: true }), '日本語テスト。')).toEqual(['日', '本', '語', 'テスト', '。']);
  });
});

describe('TER signature', () => {
  it("prints sacreBLEU's fields", () => {
    expect(getMetric('ter').signature).toBe(`ter|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:${V}`);
    expect(getMetric('ter', { normalized: true, noPunct: true, asianSupport: true, caseSensitive: true }).signature).toBe(
      `ter|nrefs:1|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:${V}`,
    );
  });
});
