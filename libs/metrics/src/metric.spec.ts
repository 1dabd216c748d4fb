// API behaviour of the metric registry: input validation, options, and the sufficient-statistics
// contract (corpus = aggregate of per-instance rows) that the ranking library's bootstrap relies on.
import {
  METRIC_NAMES,
  MetricInputError,
  getMetric,
  isMetricName,
  metricInfo,
  parseMetricOptions,
  score,
  scoreWithFlatStats,
  scoreWithFlatStatsInSlices,
  scoreWithStats,
  sumStats,
  validateStreams,
} from './index';
import { defined } from '../../../test/support/defined';

const HYPS: [string, string, string] = ['the cat sat on the mat', 'a quick brown fox', 'hello world !'];
const REFS: [string, string, string] = ['the cat is on the mat', 'the quick brown fox jumps', 'hello there world'];

describe('metric names', () => {
  it('lists the eight classical metrics and recognises only them', () => {
    expect(METRIC_NAMES).toEqual(['bleu', 'chrf', 'chrf++', 'ter', 'rouge1', 'rouge2', 'rougeL', 'rougeLsum']);
    expect(isMetricName('chrf++')).toBe(true);
    expect(isMetricName('meteor')).toBe(false);
  });
});

describe('input validation', () => {
  it('rejects reference streams of a different length with a message naming the stream and both counts', () => {
    expect(() => score('bleu', {}, HYPS, [REFS, REFS.slice(0, 2)])).toThrow(
      new MetricInputError('reference stream 2 has 2 lines but there are 3 hypotheses'),
    );
  });
  it('rejects an empty reference stream', () => {
    expect(() => score('chrf', {}, HYPS, [[]])).toThrow('reference stream 1 is empty but there are 3 hypotheses');
  });
  it('rejects a call without any reference stream', () => {
    expect(() => score('ter', {}, HYPS, [])).toThrow('no reference stream given');
  });
  it('rejects an empty hypothesis stream', () => {
    expect(() => validateStreams([], [[]])).toThrow(MetricInputError);
  });
  it('rejects unknown tokenizers, smoothing methods and metrics', () => {
    expect(() => getMetric('bleu', { tokenize: 'moses' })).toThrow("unknown BLEU tokenizer 'moses'");
    expect(() => getMetric('bleu', { smooth: 'laplace' })).toThrow("unknown BLEU smoothing 'laplace'");
    expect(() => getMetric('meteor' as never)).toThrow("unknown metric 'meteor'");
  });
  it('rejects options that do not apply to the metric', () => {
    expect(() => getMetric('bleu', { stem: true })).toThrow("option 'stem' does not apply to bleu");
    expect(() => getMetric('ter', { tokenize: '13a' })).toThrow("TER uses its own tokenizer 'tercom'");
    expect(() => getMetric('rouge1', { lowercase: false })).toThrow('ROUGE always lowercases');
  });
});

describe('parseMetricOptions', () => {
  it('keeps the values of a task configuration record and fills in sacreBLEU 2.x defaults for the rest', () => {
    // Defaults from sacreBLEU's BLEU.__init__ (tokenize 13a, smooth exp, max_ngram_order 4,
    // effective_order False) and sentence_bleu (effective order on).
    expect(parseMetricOptions('bleu', { tokenize: 'intl', lowercase: true, smoothValue: 0.2 })).toEqual({
      tokenize: 'intl',
      lowercase: true,
      smooth: 'exp',
      smoothValue: 0.2,
      effectiveOrder: false,
      sentenceEffectiveOrder: true,
      maxNgramOrder: 4,
    });
  });
  it('is applied by score() too, so untyped callers get the same errors', () => {
    const untyped = { lowercase: 'yes' } as unknown as Record<string, never>;
    expect(() => score('bleu', untyped, HYPS, [REFS])).toThrow("option 'lowercase' of bleu must be true or false");
  });
  it('rejects unknown keys and wrong types', () => {
    expect(() => parseMetricOptions('chrf', { tokenize: '13a' })).toThrow("option 'tokenize' does not apply to chrf");
    expect(() => parseMetricOptions('rougeL', { stem: 'yes' })).toThrow("option 'stem' of rougeL must be true or false");
    expect(() => parseMetricOptions('chrf++', { wordOrder: '2' })).toThrow("option 'wordOrder' of chrf++ must be a number");
  });
});

describe('sufficient statistics', () => {
  it.each(METRIC_NAMES)('%s: corpus score and instances equal the aggregates of the per-instance rows', (name) => {
    const m = getMetric(name);
    const rows = HYPS.map((h, i) => m.stats(h, [defined(REFS[i])]));
    const s = score(name, {}, HYPS, [REFS]);
    expect(m.corpusFromStats(rows)).toBeCloseTo(s.corpus, 12);
    expect(m.corpusFromSum(sumStats(rows), rows.length)).toBeCloseTo(s.corpus, 12);
    rows.forEach((row, i) => expect(m.sentenceFromStats(row)).toBeCloseTo(defined(s.instances[i]), 12));
  });
  it('lets a bootstrap resample rows with repetition (corpus BLEU of rows [0, 0, 2])', () => {
    const m = getMetric('bleu');
    const rows = HYPS.map((h, i) => m.stats(h, [defined(REFS[i])]));
    const resampled = score('bleu', {}, [HYPS[0], HYPS[0], HYPS[2]], [[REFS[0], REFS[0], REFS[2]]]).corpus;
    expect(m.corpusFromStats([defined(rows[0]), defined(rows[0]), defined(rows[2])])).toBeCloseTo(resampled, 12);
  });
  it.each(METRIC_NAMES)('%s: repeating the reference stream leaves the score unchanged', (name) => {
    expect(score(name, {}, HYPS, [REFS, REFS]).corpus).toBeCloseTo(score(name, {}, HYPS, [REFS]).corpus, 12);
  });
});

describe('scoreWithFlatStats (the worker’s form: one row-major array of statistics)', () => {
  // 60 segments of varied length and overlap, two reference streams: corpus sums of many rows,
  // where adding in another order than sumStats would show in the last bits.
  const words = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'quick', 'brown', 'fox', 'jumps', 'über', 'naïve', ',', '.', '!', "don't", '42', '3.5'];
  const sentence = (seed: number, len: number) => Array.from({ length: len }, (_, k) => words[(seed * 7 + k * k * 3 + seed * k) % words.length]).join(' ');
  const hyps = Array.from({ length: 60 }, (_, i) => sentence(i, 1 + (i % 13)));
  const streams = [Array.from({ length: 60 }, (_, i) => sentence(i + 1, 2 + (i % 11))), Array.from({ length: 60 }, (_, i) => sentence(i * 3, 1 + (i % 7)))];
  it.each(METRIC_NAMES)('%s: the same rows, instance scores and corpus score as scoreWithStats, bit for bit', (name) => {
    const plain = scoreWithStats(name, {}, hyps, streams);
    const flat = scoreWithFlatStats(name, {}, hyps, streams);
    const width = defined(plain.stats[0]).length;
    expect({ rows: flat.stats.rows, width: flat.stats.width }).toEqual({ rows: hyps.length, width });
    expect(flat.stats.data.every((v, at) => Object.is(v, defined(plain.stats[Math.floor(at / width)])[at % width]))).toBe(true);
    expect(flat.instances.every((v, i) => Object.is(v, plain.instances[i]))).toBe(true);
    expect(Object.is(flat.corpus, plain.corpus)).toBe(true);
    expect({ ...flat, stats: null, instances: null, corpus: null }).toEqual({ ...plain, stats: null, instances: null, corpus: null });
  });
  it('validates its input as score() does', () => {
    expect(() => scoreWithFlatStats('bleu', {}, HYPS, [REFS.slice(0, 2)])).toThrow('reference stream 1 has 2 lines but there are 3 hypotheses');
  });
  it.each(METRIC_NAMES)('%s in slices: the same result bit for bit, a pause between slices, every instance told', async (name) => {
    const whole = scoreWithFlatStats(name, {}, hyps, streams);
    for (const slice of [1, 7, 60, 1000]) {
      let pauses = 0;
      let told = 0;
      const sliced = await scoreWithFlatStatsInSlices(name, {}, hyps, streams, async () => {
        pauses++;
      }, slice, (n) => (told += n));
      expect(pauses).toBe(Math.ceil(hyps.length / slice) - 1);
      expect(told).toBe(hyps.length);
      expect(Object.is(sliced.corpus, whole.corpus)).toBe(true);
      expect(sliced.instances.every((v, i) => Object.is(v, whole.instances[i]))).toBe(true);
      expect(Buffer.from(sliced.stats.data.buffer).equals(Buffer.from(whole.stats.data.buffer))).toBe(true);
    }
    await expect(scoreWithFlatStatsInSlices(name, {}, hyps, streams, async () => undefined, 0)).rejects.toThrow('slice must be a positive integer');
  });
});

describe('metricInfo', () => {
  it('declares direction, range and reference aggregation', () => {
    expect(metricInfo('bleu')).toMatchObject({ higherIsBetter: true, range: [0, 100] });
    expect(metricInfo('ter')).toMatchObject({ higherIsBetter: false });
    expect(metricInfo('rougeLsum')).toMatchObject({ higherIsBetter: true, range: [0, 1] });
    for (const name of METRIC_NAMES) expect(metricInfo(name).refAggregation.length).toBeGreaterThan(10);
  });
  it('names the metric first and the version last in every signature', () => {
    for (const name of METRIC_NAMES) {
      const sig = metricInfo(name, {}, 2).signature;
      expect(sig.startsWith(`${name}|nrefs:2|`)).toBe(true);
      expect(sig.endsWith('|version:podium-0.1.0')).toBe(true);
    }
  });
});
