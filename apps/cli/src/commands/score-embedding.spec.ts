/**
 * @jest-environment <rootDir>/../../libs/nli/jest-environment.js
 */
// onnxruntime-node needs the host's typed arrays inside Jest: see libs/nli/jest-environment.js.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { embedCommand } from './embed.command';
import { scoreCommand } from './score.command';

// Real ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(120_000);

const MODEL = resolve(__dirname, '../../../../models/test-encoder-tiny');
const dir = mkdtempSync(join(tmpdir(), 'podium-cli-embedding-'));
const file = (name: string, lines: string[]) => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};
const hyp = file('hyp.txt', ['the cat sat on the mat', 'a dog ran']);
const ref = file('ref.txt', ['the cat sat on the mat', 'the dog ran in the park']);

interface Scored {
  metric: string;
  signature: string;
  corpus: number;
  instances: number[];
  components: Record<string, number[]>;
}

describe('podium score --metric bertscore', () => {
  it('scores with the test encoder: F1 per line (1 for a line equal to its reference), P/R/F1 components', async () => {
    const r = (await scoreCommand.run(['--metric', 'bertscore', '--model', MODEL, '--hyp', hyp, '--ref', ref])) as Scored;
    expect(r.metric).toBe('bertscore');
    expect(r.signature).toBe('bertscore|model:test-encoder-tiny@c61e852f3935|L:2|idf:no|rescale:no|nrefs:1|refs:best|version:podium-0.1.0');
    expect(r.instances[0]).toBeCloseTo(1, 9);
    expect(r.instances[1]).toBeLessThan(1);
    expect(r.components['F1']).toEqual(r.instances);
    expect(r.corpus).toBeCloseTo(((r.instances[0] ?? 0) + (r.instances[1] ?? 0)) / 2, 12);
    const layer1 = (await scoreCommand.run(['--metric', 'bertscore', '--model', MODEL, '--hyp', hyp, '--ref', ref, '--layer', '1'])) as Scored;
    expect(layer1.signature).toContain('|L:1|');
    expect(layer1.instances[1]).not.toBe(r.instances[1]);
  });

  it('reports a missing encoder as unavailable with the fetch command, never a score', async () => {
    await expect(scoreCommand.run(['--metric', 'bertscore', '--model', 'roberta-large', '--hyp', hyp, '--ref', ref])).rejects.toThrow(
      /^bertscore is unavailable: text encoder 'roberta-large' is not present in .*; fetch it with: npm run -s podium -- models fetch roberta-large$/,
    );
  });

  it('refuses a layer beyond the model and an option the metric does not have', async () => {
    await expect(scoreCommand.run(['--metric', 'bertscore', '--model', MODEL, '--hyp', hyp, '--ref', ref, '--layer', '5'])).rejects.toThrow(/layer 5 is beyond test-encoder-tiny's 2 layers/);
    await expect(scoreCommand.run(['--metric', 'bertscore', '--model', MODEL, '--hyp', hyp, '--ref', ref, '--options', '{"p":1}'])).rejects.toThrow(/option 'p' does not apply to bertscore/);
  });

  it('names a flag that does not apply as the user typed it (--lang-pair, not the option languagePair)', async () => {
    await expect(scoreCommand.run(['--metric', 'bertscore', '--model', MODEL, '--hyp', hyp, '--ref', ref, '--lang-pair', 'de-en'])).rejects.toThrow(/^--lang-pair does not apply to bertscore$/);
    await expect(scoreCommand.run(['--metric', 'bertscore', '--model', MODEL, '--hyp', hyp, '--ref', ref, '--mapping', 'CLP'])).rejects.toThrow(/^--mapping does not apply to bertscore$/);
  });
});

describe('podium embed', () => {
  it('writes one JSON line per input line with tokens, ids, special flags, offsets and the layers asked for', async () => {
    const out = join(dir, 'vectors.jsonl');
    await embedCommand.run(['--model', MODEL, '--layer', '0', '--layer', '2', '--out', out, ref]);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { text: string; tokens: string[]; special: boolean[]; offsets: number[][]; layers: number[]; vectors: number[][][] });
    expect(lines).toHaveLength(2);
    expect(lines[0]?.text).toBe('the cat sat on the mat');
    expect(lines[0]?.tokens).toEqual(['[CLS]', 'the', 'cat', 'sat', 'on', 'the', 'mat', '[SEP]']);
    expect(lines[0]?.special).toEqual([true, false, false, false, false, false, false, true]);
    expect(lines[0]?.offsets[2]).toEqual([4, 7]);
    expect(lines[0]?.layers).toEqual([0, 2]);
    expect(lines[0]?.vectors).toHaveLength(2);
    expect(lines[0]?.vectors[1]).toHaveLength(8);
    expect(lines[0]?.vectors[1]?.[0]).toHaveLength(16);
  });

  it('needs exactly one file and a model', async () => {
    await expect(embedCommand.run(['--model', MODEL])).rejects.toThrow('give exactly one FILE to embed');
    await expect(embedCommand.run([ref])).rejects.toThrow('--model DIR is required');
  });
});

describe('podium score --metric discoscore-focus --focus Entity --word-vectors FILE', () => {
  it('reads only the rows of the texts\' nouns from a word2vec text file and scores as with the same vectors inline', async () => {
    const h = file('ent-hyp.txt', ['The car hit the truck.', 'A dog ran.']);
    const r = file('ent-ref.txt', ['The truck hit the car.', 'The dog ran in the park.']);
    // A word2vec header, then rows; "hit" and "zebra" are not nouns of the texts, "park" has no row.
    const vectors = file('vectors.txt', ['5 2', 'car 1 0', 'truck 0.9 0.1', 'hit 0 1', 'zebra 1 1', 'dog 0 1']);
    const viaFile = (await scoreCommand.run(['--metric', 'discoscore-focus', '--model', MODEL, '--hyp', h, '--ref', r, '--focus', 'Entity', '--word-vectors', vectors])) as Scored;
    const inline = { focus: 'Entity', wordVectors: { car: [1, 0], dog: [0, 1], truck: [0.9, 0.1] } };
    const viaOptions = (await scoreCommand.run(['--metric', 'discoscore-focus', '--model', MODEL, '--hyp', h, '--ref', r, '--options', JSON.stringify(inline)])) as Scored;
    expect(viaFile.signature).toMatch(/\|focus:Entity-wink@3:[0-9a-f]{8}\|threshold:0\.8\|/);
    expect(viaFile.signature).toBe(viaOptions.signature);
    expect(viaFile.instances).toEqual(viaOptions.instances);
    // car and truck are one entity: the score differs from the NN foci's.
    const nn = (await scoreCommand.run(['--metric', 'discoscore-focus', '--model', MODEL, '--hyp', h, '--ref', r])) as Scored;
    expect(viaFile.instances[0]).not.toBeCloseTo(nn.instances[0] ?? NaN, 6);
    await expect(scoreCommand.run(['--metric', 'discoscore-focus', '--model', MODEL, '--hyp', h, '--ref', r, '--focus', 'Entity'])).rejects.toThrow(/focus Entity needs `wordVectors`/);
    await expect(scoreCommand.run(['--metric', 'bertscore', '--model', MODEL, '--hyp', h, '--ref', r, '--word-vectors', vectors])).rejects.toThrow('--word-vectors does not apply to bertscore');
  });
});
