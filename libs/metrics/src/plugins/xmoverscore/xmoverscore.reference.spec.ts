/**
 * XMoverScore against a plain recomputation from the same vectors, written after the authors'
 * `score_utils_2.py` (`cross_lingual_mapping`, `get_ngram_embs`, the (n+m)-point histograms
 * over `torch.cdist`, the `topk` noise removal) with the transport solved by HiGHS as a linear
 * programme over the whole (n+m)² problem. 240 instances over mappings, n-gram orders,
 * dropout rates and the LM term.
 */
import type { EmbeddedInstance, EmbeddedText, EncoderIdentity } from '../../embedding';
import { loadHighs, lpTransport } from '../../transport/lp-reference';
import { runEmbeddingMetric } from '../embedding-common/common';
import { randomText, seededRandom, syntheticEncoder } from '../embedding-common/synthetic';
import { XMOVERSCORE_PLUGIN } from './xmoverscore.plugin';

type Highs = Awaited<ReturnType<typeof loadHighs>>;

interface Ref {
  mapping: 'none' | 'CLP' | 'UMD';
  projection?: number[][];
  bias?: number[];
  ngram: number;
  dropout: number;
  layer: number;
}

function reference(highs: Highs, src: EmbeddedText, hyp: EmbeddedText, o: Ref): number {
  const emb = (t: EmbeddedText): number[][] => (t.layers[t.layerIndices.indexOf(o.layer)] as Float32Array[]).map((v) => Array.from(v));
  let s = emb(src);
  if (o.mapping === 'CLP') {
    const W = o.projection as number[][];
    s = s.map((e) => W.map((_, j) => e.reduce((acc, x, i) => acc + x * ((W[i] as number[])[j] as number), 0)));
  }
  if (o.mapping === 'UMD') {
    const b = o.bias as number[];
    s = s.map((e) => {
      const p = e.reduce((acc, x, i) => acc + x * (b[i] as number), 0);
      return e.map((x, i) => x - p * (b[i] as number));
    });
  }
  const ngrams = (E: number[][]): number[][] => {
    const n = Math.min(o.ngram, E.length);
    const out: number[][] = [];
    for (let c = 0; c < E.length - n + 1; c++) out.push((E[0] as number[]).map((_, d) => E.slice(c, c + n).reduce((acc, v) => acc + (v[d] as number), 0) / n));
    return out;
  };
  const S = ngrams(s);
  const H = ngrams(emb(hyp));
  const W = [...S, ...H].map((v) => {
    const nv = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
    return v.map((x) => x / nv);
  });
  const dist: number[] = [];
  for (const x of W) for (const y of W) dist.push(Math.sqrt(x.reduce((a, xi, i) => a + (xi - (y[i] as number)) ** 2, 0)));
  const N = W.length;
  const c1 = [...S.map(() => 1 / S.length), ...H.map(() => 0)];
  const c2 = [...S.map(() => 0), ...H.map(() => 1 / H.length)];
  const { flow } = lpTransport(highs, c1, c2, dist);
  const block: { f: number; d: number }[] = [];
  for (let i = 0; i < S.length; i++) for (let j = S.length; j < N; j++) block.push({ f: flow[i * N + j] as number, d: dist[i * N + j] as number });
  const nz = block.filter((b) => b.f > 1e-12).map((b) => b.f).sort((a, b) => a - b);
  const k = Math.max(Math.floor(nz.length * o.dropout), 1);
  const threshold = nz[k - 1] as number;
  return 1 - block.reduce((acc, b) => acc + (b.f > 1e-12 && b.f >= threshold - 1e-12 ? b.f * b.d : 0), 0);
}

function randomMatrix(rand: () => number, d: number): number[][] {
  return Array.from({ length: d }, () => Array.from({ length: d }, () => rand() * 2 - 1));
}
function unit(rand: () => number, d: number): number[] {
  const v = Array.from({ length: d }, () => rand() * 2 - 1);
  const n = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  return v.map((x) => x / n);
}

function corpus(rand: () => number, size: number, enc: EncoderIdentity): EmbeddedInstance[] {
  return Array.from({ length: size }, () => ({
    source: randomText(rand, 1 + Math.floor(rand() * 14), enc),
    hyp: randomText(rand, 1 + Math.floor(rand() * 14), enc),
    refs: [],
    hypLmLogProb: -1 - 4 * rand(),
  }));
}

describe('XMoverScore equals a plain reference recomputation (HiGHS LP) to 1e-6', () => {
  const enc = syntheticEncoder(9, 6);
  const rand0 = seededRandom(2020);
  const projection = randomMatrix(rand0, 6);
  const bias = unit(rand0, 6);
  const cases: { name: string; options: Record<string, unknown>; size: number }[] = [
    { name: 'no mapping, bigrams, dropout 0.3 (the code\'s defaults)', options: {}, size: 60 },
    { name: 'CLP, unigrams', options: { mapping: 'CLP', projection, ngram: 1 }, size: 60 },
    { name: 'UMD, bigrams, layer 5', options: { mapping: 'UMD', bias, layer: 5 }, size: 50 },
    { name: 'CLP, trigrams, no dropout, with the LM term', options: { mapping: 'CLP', projection, ngram: 3, dropout: 0, lm: true }, size: 40 },
    { name: 'no mapping, dropout 0.5', options: { dropout: 0.5 }, size: 30 },
  ];
  it.each(cases)('$name', async ({ options, size }) => {
    const highs = await loadHighs();
    const instances = corpus(seededRandom(size + JSON.stringify(options).length), size, enc);
    const mine = runEmbeddingMetric(XMOVERSCORE_PLUGIN, instances, options, enc);
    const o = mine.options as unknown as Ref & { lm: boolean; lmWeight: number };
    instances.forEach((inst, k) => {
      const expected = reference(highs, inst.source as EmbeddedText, inst.hyp, o) + (o.lm ? 0.1 * (inst.hypLmLogProb as number) : 0);
      const got = (mine.scores[k] as { score: number }).score;
      if (Math.abs(got - expected) > 1e-6) throw new Error(`instance ${k}: ${got} vs reference ${expected}`);
    });
  }, 600_000);
});
