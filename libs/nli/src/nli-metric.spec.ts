import { loadNliModel, type NliModel } from './nli-model';
import {
  applyFormula,
  defaultNliOptions,
  formulaRange,
  type NliMetricOptions,
  scoreNli,
  sentenceWindows,
  splitSentences,
} from './nli-metric';
import { closedForm, TEST_MODEL_DIR } from './testing/test-model';
import { defined } from '../../../test/support/defined';

// Expected probabilities come from the test model's closed form (models/make-test-model.ts),
// with the features r, neg, num worked out by hand in each test.
const opts = (o: Partial<NliMetricOptions>): NliMetricOptions => ({ ...defaultNliOptions('mt', 'ref'), ...o });

describe('applyFormula and formulaRange', () => {
  const p = { e: 0.7, n: 0.2, c: 0.1 };
  it('computes the five MENLI formulas (M:487) by hand', () => {
    expect(applyFormula('e', p)).toBeCloseTo(0.7, 12);
    expect(applyFormula('-c', p)).toBeCloseTo(-0.1, 12);
    expect(applyFormula('e-n', p)).toBeCloseTo(0.5, 12);
    expect(applyFormula('e-c', p)).toBeCloseTo(0.6, 12);
    expect(applyFormula('e-n-2c', p)).toBeCloseTo(0.3, 12);
  });
  it('bounds e-n-2c by [-2, 1] (c = 1 and e = 1)', () => {
    expect(formulaRange('e-n-2c')).toEqual([-2, 1]);
    expect(applyFormula('e-n-2c', { e: 0, n: 0, c: 1 })).toBe(-2);
    expect(applyFormula('e-n-2c', { e: 1, n: 0, c: 0 })).toBe(1);
  });
});

describe('defaultNliOptions', () => {
  // docs/science.md §3 table: MT e ↔ (M:615–626); summarisation e−c ← (M:1366) and −c src→ (M:1367).
  it('uses e with <-> for MT, reference-based and reference-free', () => {
    expect(defaultNliOptions('mt', 'ref')).toMatchObject({ formula: 'e', direction: 'ref<->hyp', refsAggregation: 'max', long: 'truncate' });
    expect(defaultNliOptions('mt', 'src')).toMatchObject({ formula: 'e', direction: 'src<->hyp' });
  });
  it('uses e-c with ref<-hyp and -c with src->hyp for summarisation', () => {
    expect(defaultNliOptions('summarization', 'ref')).toMatchObject({ formula: 'e-c', direction: 'ref<-hyp' });
    expect(defaultNliOptions('summarization', 'src')).toMatchObject({ formula: '-c', direction: 'src->hyp' });
  });
});

describe('splitSentences and sentenceWindows', () => {
  it('splits after sentence punctuation followed by space', () => {
    expect(splitSentences('One. Two! "Three?" Four')).toEqual(['One.', 'Two!', '"Three?"', 'Four']);
  });
  it('packs consecutive sentences greedily into windows within the token budget', () => {
    const words = (s: string) => s.split(' ').length;
    expect(sentenceWindows('a b. c d. e f g. h.', 4, words)).toEqual(['a b. c d.', 'e f g. h.']);
  });
});

describe('scoreNli with the tiny test model', () => {
  let model: NliModel;
  beforeAll(async () => {
    model = await loadNliModel(TEST_MODEL_DIR, { log: () => undefined });
  });
  afterAll(() => model.close());

  const ref = 'The cat sat on the mat in the garden.';
  const hyp = 'The cat sat.';
  // ref->hyp: hypothesis types the, cat, sat all in the premise: r = 1.
  // ref<-hyp: premise "the cat sat"; hypothesis types the, cat, sat, on, mat, in, garden: r = 3/7.
  const fwd = closedForm(1, 0, 0);
  const bwd = closedForm(3 / 7, 0, 0);

  it('scores ref->hyp, ref<-hyp and their mean for ref<->hyp', async () => {
    const input = { hyps: [hyp], refStreams: [[ref]] };
    const f = await scoreNli(model, input, opts({ direction: 'ref->hyp' }));
    const b = await scoreNli(model, input, opts({ direction: 'ref<-hyp' }));
    const both = await scoreNli(model, input, opts({ direction: 'ref<->hyp' }));
    expect(f.instances[0]).toBeCloseTo(fwd.e, 5);
    expect(b.instances[0]).toBeCloseTo(bwd.e, 5);
    expect(both.instances[0]).toBeCloseTo((fwd.e + bwd.e) / 2, 5);
  });

  it('applies the chosen formula to the same probabilities', async () => {
    const r = await scoreNli(model, { hyps: [hyp], refStreams: [[ref]] }, opts({ direction: 'ref<-hyp', formula: 'e-n-2c' }));
    expect(r.instances[0]).toBeCloseTo(bwd.e - bwd.n - 2 * bwd.c, 5);
    expect(r.range).toEqual([-2, 1]);
    expect(r.higherIsBetter).toBe(true);
  });

  it('aggregates two references by max or by mean', async () => {
    // second reference "the dog ran": hypothesis types the, cat, sat vs premise: only "the": r = 1/3
    const input = { hyps: [hyp], refStreams: [[ref], ['The dog ran.']] };
    const other = closedForm(1 / 3, 0, 0);
    const max = await scoreNli(model, input, opts({ direction: 'ref->hyp', refsAggregation: 'max' }));
    const mean = await scoreNli(model, input, opts({ direction: 'ref->hyp', refsAggregation: 'mean' }));
    expect(max.instances[0]).toBeCloseTo(fwd.e, 5);
    expect(mean.instances[0]).toBeCloseTo((fwd.e + other.e) / 2, 5);
  });

  it('uses the source as premise in reference-free mode and says so in the signature', async () => {
    const r = await scoreNli(
      model,
      { hyps: ['The meeting is at 7 pm.'], sources: ['The meeting is at 5 pm.'] },
      defaultNliOptions('summarization', 'src'),
    );
    // src->hyp: r = 5/6 (7 is new), num = 1; formula -c
    expect(r.instances[0]).toBeCloseTo(-closedForm(5 / 6, 0, 1).c, 5);
    expect(r.signature).toBe(
      `nli|model:test-nli-tiny@${model.sha256.slice(0, 12)}|formula:-c|dir:src->|refs:none|long:truncate|ep:cpu|version:1.0.0`,
    );
  });

  it('writes the signature with model, formula, direction, aggregation, long mode and provider', async () => {
    const r = await scoreNli(model, { hyps: [hyp], refStreams: [[ref]] }, defaultNliOptions('mt', 'ref'));
    expect(r.signature).toBe(
      `nli|model:test-nli-tiny@${model.sha256.slice(0, 12)}|formula:e|dir:<->|refs:max|long:truncate|ep:cpu|version:1.0.0`,
    );
    expect(model.sha256.slice(0, 12)).toBe('3e4907effc5a');
  });

  it('finds evidence past the model length with chunk but not with truncate', async () => {
    // 40 sentences "the police said." (4 tokens each) push "the cat sat on the mat." past 128 tokens.
    const premise = Array(40).fill('The police said.').join(' ') + ' The cat sat on the mat.';
    const input = { hyps: ['The cat sat on the mat.'], refStreams: [[premise]] };
    const truncated = await scoreNli(model, input, opts({ direction: 'ref->hyp', long: 'truncate' }));
    const chunked = await scoreNli(model, input, opts({ direction: 'ref->hyp', long: 'chunk' }));
    // truncate: of the types the, cat, sat, on, mat only "the" is kept: r = 1/5; chunk: last window has all: r = 1
    expect(truncated.instances[0]).toBeCloseTo(closedForm(1 / 5, 0, 0).e, 5);
    expect(chunked.instances[0]).toBeCloseTo(closedForm(1, 0, 0).e, 5);
    expect(chunked.signature).toContain('|long:chunk|');
  });

  it('returns the mean of instance scores as the corpus score', async () => {
    const r = await scoreNli(model, { hyps: [hyp, 'The dog ran.'], refStreams: [[ref, 'The dog ran.']] }, opts({ direction: 'ref->hyp' }));
    const [first, second] = r.instances;
    expect(r.corpus).toBeCloseTo((defined(first) + defined(second)) / 2, 12);
    expect(r.instances[1]).toBeCloseTo(closedForm(1, 0, 0).e, 5);
  });

  it('rejects a reference stream whose length differs from the hypotheses', async () => {
    await expect(scoreNli(model, { hyps: ['a', 'b'], refStreams: [['a']] }, opts({}))).rejects.toThrow(
      'reference stream 1 has 1 lines, hypotheses 2',
    );
  });

  it('rejects reference-free scoring without sources', async () => {
    await expect(scoreNli(model, { hyps: ['a'] }, defaultNliOptions('mt', 'src'))).rejects.toThrow('needs sources');
  });
});
