import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sha256File } from '@podium/nli';
import { encoderAvailability } from './availability';
import { loadEncoder, type Encoder } from './encoder';
import { alignOffsets } from './text-tokenizer';

// Real ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(120_000);

const ROOT = resolve(__dirname, '../../..');
const MODEL = join(ROOT, 'models', 'test-encoder-tiny');

let encoder: Encoder;
beforeAll(async () => {
  encoder = await loadEncoder(MODEL, { log: () => undefined });
});
afterAll(async () => encoder.close());

describe('the test encoder (models/test-encoder-tiny)', () => {
  it('regenerates byte-identical files whose sha256 match the committed model and the manifest', async () => {
    const out = mkdtempSync(join(tmpdir(), 'podium-test-encoder-'));
    execFileSync(process.execPath, ['-r', '@swc-node/register', 'models/make-test-encoder.ts', out], { cwd: ROOT, stdio: 'pipe' });
    const manifest = JSON.parse(readFileSync(join(ROOT, 'models', 'manifest.json'), 'utf8')) as { models: Record<string, { kind: string; files: Record<string, { sha256: string }> }> };
    const entry = manifest.models['test-encoder-tiny'];
    expect(entry?.kind).toBe('encoder');
    for (const [name, { sha256 }] of Object.entries(entry?.files ?? {})) {
      expect(await sha256File(join(out, name))).toBe(sha256);
      expect(await sha256File(join(MODEL, name))).toBe(sha256);
    }
  });

  it('names itself by directory, model.onnx sha256, 2 layers of 16', () => {
    expect(encoder.identity).toEqual({ name: 'test-encoder-tiny', sha256: 'c61e852f3935cc393ce96d23116128c803e3a5a9c1a9ff1f82c29ddf0a7bef4c', numLayers: 2, hiddenSize: 16 });
    expect(encoder.maxLength).toBe(128);
  });
});

describe('tokenisation', () => {
  it('adds [CLS] and [SEP] as special tokens and gives word pieces their character offsets', () => {
    const t = encoder.tokenize('  The cat sat, naïvely.');
    expect(t.tokens).toEqual(['[CLS]', 'the', 'cat', 'sat', ',', 'n', '##a', '##i', '##v', '##e', '##l', '##y', '.', '[SEP]']);
    expect(t.special).toEqual([true, ...Array<boolean>(12).fill(false), true]);
    expect(t.offsets.slice(0, 5)).toEqual([[0, 0], [2, 5], [6, 9], [10, 13], [13, 14]]);
    // 'ï' (an i with diaeresis) is aligned with the '##i' piece the lower-casing normaliser made of it.
    expect(t.offsets[7]).toEqual([17, 18]);
    expect(t.text).toBe('  The cat sat, naïvely.');
  });

  it('encodes an empty text as [CLS] [SEP] (as bert_score) and truncates keeping the special tokens', () => {
    expect(encoder.tokenize('').tokens).toEqual(['[CLS]', '[SEP]']);
    const long = encoder.tokenize(Array(300).fill('cat').join(' '));
    expect(long.tokens).toHaveLength(128);
    expect([long.tokens[0], long.tokens[127]]).toEqual(['[CLS]', '[SEP]']);
  });

  it('alignOffsets leaves an unfindable token an empty span at the current position', () => {
    expect(alignOffsets('ab cd', ['[CLS]', 'ab', '[UNK]', 'cd', '[SEP]'], [true, false, false, false, true])).toEqual([[0, 0], [0, 2], [2, 2], [3, 5], [0, 0]]);
  });
});

describe('hidden states', () => {
  it('returns the requested layers for every token; layers differ and a text gets the same vectors alone or batched with longer ones', async () => {
    const texts = ['The cat sat.', 'A dog ran in the park with the cat and the other dog.', 'Tea.'];
    const batched = await encoder.embed(texts, [0, 2], { batchSize: 3 });
    const alone = await encoder.embed([texts[0] ?? ''], [0, 2], { batchSize: 1 });
    const [a, b] = [batched[0], alone[0]];
    expect(a?.layerIndices).toEqual([0, 2]);
    expect(a?.layers).toHaveLength(2);
    expect(a?.layers[0]).toHaveLength(a?.tokens.length ?? -1);
    expect(a?.layers[1]?.[1]).toHaveLength(16);
    expect(Array.from(a?.layers[0]?.[1] ?? [])).not.toEqual(Array.from(a?.layers[1]?.[1] ?? []));
    // Padding is masked: the same text's vectors agree with and without longer batch mates (float tolerance).
    a?.layers[1]?.forEach((v, t) => v.forEach((x, k) => expect(Math.abs(x - (b?.layers[1]?.[t]?.[k] ?? NaN))).toBeLessThan(1e-5)));
    // Contextual: 'cat' in two sentences has different last-layer vectors.
    const catA = a?.layers[1]?.[a.tokens.indexOf('cat')];
    const catB = batched[1]?.layers[1]?.[batched[1].tokens.indexOf('cat')];
    expect(Array.from(catA ?? [])).not.toEqual(Array.from(catB ?? []));
  });

  it('refuses a layer the model does not have', async () => {
    await expect(encoder.embed(['x'], [3])).rejects.toThrow(/layer 3 is outside 0…2 of 'test-encoder-tiny'/);
  });
});

describe('availability', () => {
  it('names the fetch command for a model that is not there, and accepts the test encoder', () => {
    expect(encoderAvailability(MODEL)).toEqual({ available: true });
    const r = encoderAvailability(join(ROOT, 'models', 'roberta-large'));
    expect(r.available).toBe(false);
    expect(r.reason).toMatch(/text encoder 'roberta-large' is not present in .*; fetch it with: npm run -s podium -- models fetch roberta-large$/);
  });

  it('refuses an NLI cross-encoder directory (no hidden-state config)', () => {
    expect(encoderAvailability(join(ROOT, 'models', 'test-nli-tiny')).reason).toMatch(/lacks num_hidden_layers or hidden_size/);
  });
});
