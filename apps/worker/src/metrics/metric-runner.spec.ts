import { readsSources, referenceStreams, runMetrics, SCORING_SLICE, type ScoringInstance } from './metric-runner';

const inst = (references: string[]): ScoringInstance => ({ source: 's', output: 'o', references });

describe('referenceStreams', () => {
  it('lays references out as sacreBLEU streams, one stream per reference position', () => {
    expect(referenceStreams([inst(['a1', 'a2']), inst(['b1', 'b2'])])).toEqual([
      ['a1', 'b1'],
      ['a2', 'b2'],
    ]);
  });
  it('repeats the first reference of an instance that has fewer references than the widest', () => {
    expect(referenceStreams([inst(['a1', 'a2', 'a3']), inst(['b1'])])).toEqual([
      ['a1', 'b1'],
      ['a2', 'b1'],
      ['a3', 'b1'],
    ]);
  });
});

describe('readsSources', () => {
  const config = (name: string) => ({ key: name, name, options: {} });
  it('is false for tasks scored only from outputs and references (BLEU, chrF, TER, ROUGE): their scoring reads no source', () => {
    expect(readsSources([config('bleu'), config('chrf'), config('ter'), config('rougeL')])).toBe(false);
  });
  it('is true as soon as a model or embedding metric may read them, and for a configuration it cannot parse', () => {
    expect(readsSources([config('bleu'), config('nli')])).toBe(true);
    expect(readsSources([config('bertscore')])).toBe(true);
    expect(readsSources('not a list')).toBe(true);
  });
});

describe('runMetrics', () => {
  const pair = (output: string, reference: string): ScoringInstance => ({ source: 's', output, references: [reference] });

  it('returns the sufficient statistics of corpus metrics with their scores, none for sentence-level ones', async () => {
    const [bleu, rouge] = await runMetrics(
      [{ key: 'bleu', name: 'bleu', options: {} }, { key: 'r1', name: 'rouge1', options: {} }],
      'mt',
      [pair('a b c d', 'a b c d'), pair('d e x', 'd e f')],
      null,
    );
    if (!bleu) throw new Error('expected bleu to be present');
    if (!rouge) throw new Error('expected rouge to be present');
    // sacreBLEU's rows [hyp len, ref len, matches 1–4, totals 1–4], counted by hand.
    expect(bleu.stats).toEqual({ rows: 2, width: 10, data: Float64Array.from([4, 4, 4, 3, 2, 1, 4, 3, 2, 1, 3, 3, 2, 1, 0, 0, 3, 2, 1, 0]) });
    expect(bleu.instances[0]).toBeCloseTo(100, 10);
    expect(rouge.stats).toBeUndefined();
  });

  it('leaves the event loop free between slices of a long run (leases are renewed there), telling progress per slice', async () => {
    const n = 3 * SCORING_SLICE;
    const instances = Array.from({ length: n }, (_, i) => pair(`w${i % 97} x y z ${i % 13}`, `w${i % 89} x y ${i % 11}`));
    // A timer due at once runs only when the loop turns: never, if scoring held the loop throughout.
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    const told: number[] = [];
    try {
      await runMetrics([{ key: 'ter', name: 'ter', options: {} }], 'mt', instances, null, (done) => told.push(done));
    } finally {
      clearInterval(timer);
    }
    expect(turns).toBeGreaterThan(0);
    expect(told).toEqual([SCORING_SLICE, SCORING_SLICE, SCORING_SLICE]);
  });

  it('hands a model metric to the injected runtime and refuses it without one, naming what is missing', async () => {
    const nli = { key: 'nli', name: 'nli' as const, options: {} };
    await expect(runMetrics([nli], 'mt', [pair('a', 'a')], null)).rejects.toThrow("metric 'nli' needs an NLI model, and this worker has none");
    const injected = { score: async () => ({ key: 'nli', signature: 'nli|test', sentenceSignature: 'nli|test', corpus: 0.5, instances: [0.5] }) };
    await expect(runMetrics([nli], 'mt', [pair('a', 'a')], injected)).resolves.toEqual([
      { key: 'nli', signature: 'nli|test', sentenceSignature: 'nli|test', corpus: 0.5, instances: [0.5] },
    ]);
  });

  it('hands an embedding metric to the injected encoder host and refuses it without one', async () => {
    const bs = { key: 'bs', name: 'bertscore' as const, options: {} };
    await expect(runMetrics([bs], 'mt', [pair('a', 'a')], null)).rejects.toThrow("metric 'bs' needs a text encoder (BERT-family ONNX model with hidden states), and this worker has none");
    const result = { key: 'bs', signature: 'bertscore|test', sentenceSignature: 'bertscore|test', corpus: 0.9, instances: [0.9] };
    const embeddings = { score: jest.fn(async () => result) };
    await expect(runMetrics([bs], 'mt', [pair('a', 'a')], null, undefined, embeddings)).resolves.toEqual([result]);
    expect(embeddings.score).toHaveBeenCalledTimes(1);
  });
});
