import { conformanceChecks } from '../../conformance';
import type { EncoderIdentity } from '../../embedding';
import { BERTSCORE_MODEL_LAYERS, BERTSCORE_PLUGIN, bertScoreDefaultModel, bertScoreLayer } from './bertscore.plugin';
import { idfFromReferences, parseBaseline, tokenWeights } from './bertscore';

const tiny: EncoderIdentity = { name: 'test-encoder-tiny', sha256: 'c'.repeat(64), numLayers: 2, hiddenSize: 16 };
const roberta: EncoderIdentity = { name: 'roberta-large', sha256: 'a'.repeat(64), numLayers: 24, hiddenSize: 1024 };

describe('BERTScore plugin', () => {
  it('passes the shared conformance checks on its hand-made vectors', async () => {
    for (const c of conformanceChecks(BERTSCORE_PLUGIN)) await c.run();
  });

  it("takes bert_score's layer per model (model2layers), else the last layer; an explicit layer wins", () => {
    expect(bertScoreLayer({}, roberta)).toBe(17);
    expect(BERTSCORE_MODEL_LAYERS['bert-base-multilingual-cased']).toBe(9);
    expect(bertScoreLayer({}, tiny)).toBe(2);
    expect(bertScoreLayer({ layer: 1 }, tiny)).toBe(1);
    expect(() => bertScoreLayer({ layer: 3 }, tiny)).toThrow(/layer 3 is beyond test-encoder-tiny's 2 layers/);
    expect(bertScoreDefaultModel('en')).toBe('roberta-large');
    expect(bertScoreDefaultModel('de')).toBe('bert-base-multilingual-cased');
  });

  it('asks the host for the baseline file of its language and model only when rescaling', () => {
    expect(BERTSCORE_PLUGIN.hostFiles?.({ rescale: false }, roberta)).toEqual([]);
    expect(BERTSCORE_PLUGIN.hostFiles?.({ rescale: true, lang: 'de' }, roberta)).toEqual([
      { dataset: 'bertscore-baselines', path: 'experiments/metrics/bert_score/rescale_baseline/de/roberta-large.tsv', into: 'baselineTsv', what: "bert_score's published baseline for roberta-large (de)" },
    ]);
    expect(() => BERTSCORE_PLUGIN.prepare({ hyps: [], refs: [] }, { rescale: true }, roberta)).toThrow(/rescaling needs the baseline of roberta-large \(en\)/);
  });

  it('reads a baseline row by layer and refuses a file without it', () => {
    const text = 'LAYER,P,R,F\n0,0.3712891,0.37132213,0.36826715\n1,0.67176163,0.6717439,0.6703483\n';
    expect(parseBaseline(text, 1)).toEqual({ p: 0.67176163, r: 0.6717439, f: 0.6703483 });
    expect(() => parseBaseline(text, 5)).toThrow(/no row for layer 5/);
    expect(() => parseBaseline('a,b\n', 0)).toThrow(/LAYER,P,R,F/);
  });

  it('idf is log((M+1)/(df+1)) over reference texts, each counted once; special tokens weigh 0', () => {
    const t = (ids: number[]) => ({ text: '', tokens: ids.map(String), ids, special: ids.map((i) => i >= 100), offsets: ids.map((): [number, number] => [0, 0]) });
    const idf = idfFromReferences([t([101, 1, 1, 2, 102]), t([101, 1, 102])]);
    expect(idf.weights.get(1)).toBeCloseTo(Math.log(3 / 3), 12);
    expect(idf.weights.get(2)).toBeCloseTo(Math.log(3 / 2), 12);
    expect(tokenWeights(t([101, 2, 7, 102]), idf)).toEqual([0, Math.log(3 / 2), Math.log(3), 0]);
    expect(tokenWeights(t([101, 2, 102]), null)).toEqual([0, 1, 0]);
  });

  it('signature names model, sha256 prefix, layer, idf, rescaling and references', () => {
    expect(BERTSCORE_PLUGIN.signature({ idf: true }, tiny, 2)).toBe('bertscore|model:test-encoder-tiny@cccccccccccc|L:2|idf:yes|rescale:no|nrefs:2|refs:best|version:podium-0.1.0');
  });
});
