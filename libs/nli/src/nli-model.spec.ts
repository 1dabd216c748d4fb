import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadNliModel, type NliModel, type NliPair } from './nli-model';
import { closedForm, copyTestModel, TEST_MODEL_DIR } from './testing/test-model';
import { defined } from '../../../test/support/defined';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

const quiet = () => undefined;

type Probs = { e: number; n: number; c: number };
function expectProbs(got: Probs | undefined, want: Probs | undefined) {
  const [actual, expected] = [defined(got, 'predicted probabilities'), defined(want, 'expected probabilities')];
  expect(actual.e).toBeCloseTo(expected.e, 5);
  expect(actual.n).toBeCloseTo(expected.n, 5);
  expect(actual.c).toBeCloseTo(expected.c, 5);
}

describe('loadNliModel with the tiny test model', () => {
  let model: NliModel;
  beforeAll(async () => {
    model = await loadNliModel(TEST_MODEL_DIR, { log: quiet });
  });
  afterAll(() => model.close());

  it('reports the name, the model.onnx sha256 from the manifest, cpu, and the max length from config.json', () => {
    expect(model.name).toBe('test-nli-tiny');
    const manifest = JSON.parse(readFileSync(join(TEST_MODEL_DIR, '..', 'manifest.json'), 'utf8'));
    expect(model.sha256).toBe(manifest.models['test-nli-tiny'].files['model.onnx'].sha256);
    expect(model.executionProvider).toBe('cpu');
    expect(model.maxLength).toBe(128);
  });

  it('maps outputs through id2label {0: contradiction, 1: entailment, 2: neutral}', () => {
    expect(model.labels).toEqual({ contradiction: 0, entailment: 1, neutral: 2 });
  });

  // Expected values: the closed form documented in models/make-test-model.ts, features worked out by hand.
  it('gives a hypothesis identical to the premise entailment 0.926 (r = 1)', async () => {
    const [p] = await model.predict([{ premise: 'The cat sat on the mat.', hypothesis: 'The cat sat on the mat.' }]);
    expectProbs(p, closedForm(1, 0, 0));
    expect(p?.e).toBeCloseTo(0.92594, 4);
  });

  it('makes a hypothesis sharing 2 of 5 content words mostly neutral (r = 2/5)', async () => {
    // hypothesis types: the, dog, ran, in, park; found in the premise: the, in
    const [p] = await model.predict([{ premise: 'The cat sat in the garden.', hypothesis: 'The dog ran in the park.' }]);
    expectProbs(p, closedForm(2 / 5, 0, 0));
    expect(p?.n).toBeGreaterThan(defined(p).e);
  });

  it('raises contradiction when only the hypothesis is negated', async () => {
    // content types of the hypothesis: the, cat, did, sit, on, mat (not is a negation, not content); all but "did", "sit" in the premise
    const [p] = await model.predict([{ premise: 'The cat sat on the mat.', hypothesis: 'The cat did not sit on the mat.' }]);
    expectProbs(p, closedForm(4 / 6, 1, 0));
    expect(p?.c).toBeGreaterThan(0.5);
  });

  it('raises contradiction when the hypothesis has a number the premise lacks', async () => {
    // hypothesis types: the, meeting, is, at, 7, pm; 5 of 6 in the premise; 7 is a new number
    const [p] = await model.predict([{ premise: 'The meeting is at 5 pm.', hypothesis: 'The meeting is at 7 pm.' }]);
    expectProbs(p, closedForm(5 / 6, 0, 1));
    expect(p?.c).toBeGreaterThan(0.9);
  });

  it('gives identical probabilities whatever the batch size and input order (within 1e-5)', async () => {
    const words = 'the cat dog sat ran on in park garden mat not 5 7 police said year people new red blue'.split(' ');
    const sentence = (seed: number, len: number) =>
      Array.from({ length: len }, (_, i) => words[(seed * 7 + i * 13 + ((seed * i) % 5)) % words.length]).join(' ');
    const pairs: NliPair[] = Array.from({ length: 45 }, (_, k) => ({
      premise: sentence(k, 3 + (k % 17)),
      hypothesis: sentence(k + 3, 2 + ((k * 5) % 11)),
    }));
    const reference = await model.predict(pairs, { batchSize: 1 });
    for (const batchSize of [2, 8, 32, 64]) {
      const got = await model.predict(pairs, { batchSize });
      got.forEach((p, i) => expectProbs(p, reference[i]));
    }
    const reversed = await model.predict([...pairs].reverse(), { batchSize: 8 });
    reversed.reverse().forEach((p, i) => expectProbs(p, reference[i]));
  });

  it('reports progress after every batch up to the total', async () => {
    const seen: [number, number][] = [];
    const pair = { premise: 'a cat', hypothesis: 'a dog' };
    await model.predict(Array(5).fill(pair), { batchSize: 2, onProgress: (d, t) => seen.push([d, t]) });
    expect(seen).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it('scores premises longer than the model takes by truncating, not failing', async () => {
    const long = Array(400).fill('the police said').join(' ');
    const [p] = await model.predict([{ premise: long, hypothesis: 'the police said' }]);
    expectProbs(p, closedForm(1, 0, 0));
  });
});

describe('loadNliModel refusals', () => {
  it('refuses a model whose id2label does not name the three NLI classes', async () => {
    const { modelDir, manifestPath } = copyTestModel();
    const config = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8'));
    config.id2label = { 0: 'LABEL_0', 1: 'LABEL_1', 2: 'LABEL_2' };
    writeFileSync(join(modelDir, 'config.json'), JSON.stringify(config));
    await expect(loadNliModel(modelDir, { manifestPath, log: quiet })).rejects.toThrow(
      /lacks entailment, neutral, contradiction/,
    );
  });

  it('refuses a model whose files do not match the manifest checksums', async () => {
    const { modelDir, manifestPath } = copyTestModel();
    writeFileSync(join(modelDir, 'tokenizer.json'), readFileSync(join(modelDir, 'tokenizer.json'), 'utf8') + ' ');
    await expect(loadNliModel(modelDir, { manifestPath, log: quiet })).rejects.toThrow(
      /failed verification: tokenizer.json sha256 [0-9a-f]{64} does not match/,
    );
  });

  it('names the fetch command when the model directory is missing', async () => {
    await expect(loadNliModel('/nonexistent/nli-deberta-v3-xsmall', { log: quiet })).rejects.toThrow(
      'npm run -s podium -- models fetch nli-deberta-v3-xsmall',
    );
  });

  it('falls back to cpu when cuda is asked for but unavailable, and logs it', async () => {
    const lines: string[] = [];
    const model = await loadNliModel(TEST_MODEL_DIR, { provider: 'cuda', log: (m) => lines.push(m) });
    try {
      // On a machine with a working CUDA provider this is 'cuda'; here onnxruntime-node ships none.
      expect(['cuda', 'cpu']).toContain(model.executionProvider);
      if (model.executionProvider === 'cpu') expect(lines.join('\n')).toMatch(/falling back to cpu/);
      expect(lines.join('\n')).toContain(`on ${model.executionProvider}`);
    } finally {
      await model.close();
    }
  });
});
