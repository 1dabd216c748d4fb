/**
 * MoverScore against a deliberately plain recomputation from the same vectors, written after
 * the authors' `moverscore.py` / `moverscore_v2.py` line by line (the (n+m)-point histograms,
 * the x² + y² − 2xy distance matrix, `get_idf_dict`'s Counter) with the transport solved as a
 * linear programme by HiGHS over the whole (n+m)² problem, as pyemd is called. 230 instances,
 * 1–3 references each, both variants, uni- and bigrams, corpus and uniform idf, stop words.
 */
import type { EmbeddedInstance, EmbeddedText, EncoderIdentity } from '../../embedding';
import { loadHighs, lpTransport } from '../../transport/lp-reference';
import { runEmbeddingMetric } from '../embedding-common/common';
import { randomText, seededRandom, syntheticEncoder } from '../embedding-common/synthetic';
import { MOVERSCORE_PLUGIN } from './moverscore.plugin';

type Highs = Awaited<ReturnType<typeof loadHighs>>;
const PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

function getIdfDict(docs: number[][]): (id: number) => number {
  const counts: Record<number, number> = {};
  for (const d of docs) for (const id of Array.from(new Set(d))) counts[id] = (counts[id] ?? 0) + 1;
  const N = docs.length;
  return (id) => (id in counts ? Math.log((N + 1) / ((counts[id] as number) + 1)) : Math.log(N + 1));
}

function vec(t: EmbeddedText, layer: number, k: number): number[] {
  return Array.from((t.layers[t.layerIndices.indexOf(layer)] as Float32Array[])[k] as Float32Array);
}
const l2 = (v: number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
function pairwise(raw: number[][], sqrt: boolean): number[] {
  const out: number[] = [];
  for (const x of raw) {
    for (const y of raw) {
      const d = x.reduce((s, a) => s + a * a, 0) + y.reduce((s, a) => s + a * a, 0) - 2 * x.reduce((s, a, i) => s + a * (y[i] as number), 0);
      out.push(sqrt ? Math.sqrt(Math.max(d, 1e-30)) : Math.max(d, 0));
    }
  }
  return out;
}

function referenceV1(highs: Highs, ref: EmbeddedText, hyp: EmbeddedText, idfRef: (id: number) => number, idfHyp: (id: number) => number, n: number, stop: string[], L: number): number {
  const layers = [L - 4, L - 3, L - 2, L - 1, L];
  const embed = (t: EmbeddedText): number[][] =>
    t.tokens.map((_, k) => {
      const per = layers.map((l) => {
        const v = vec(t, l, k);
        const s = l2(v);
        return v.map((x) => x / s);
      });
      const h = (per[0] as number[]).length;
      const mn = Array.from({ length: h }, (_, d) => Math.min(...per.map((p) => p[d] as number)));
      const av = Array.from({ length: h }, (_, d) => per.reduce((s, p) => s + (p[d] as number), 0) / per.length);
      const mx = Array.from({ length: h }, (_, d) => Math.max(...per.map((p) => p[d] as number)));
      return [...mn, ...av, ...mx];
    });
  const loadNgram = (t: EmbeddedText, idfF: (id: number) => number): { e: number[][]; idf: number[] } => {
    const ids = t.tokens.map((w, k) => [w, k] as const).filter(([w]) => !PUNCT.includes(w) || w.length !== 1).filter(([w]) => !w.includes('##') && !stop.includes(w)).map(([, k]) => k);
    const E = embed(t);
    const idf = t.ids.map(idfF);
    let w = n;
    if (ids.length - w + 1 <= 0) w = ids.length;
    const e: number[][] = [];
    const wts: number[] = [];
    for (let s = 0; s + w <= ids.length; s++) {
      const win = ids.slice(s, s + w);
      const sum = win.reduce((a, k) => a + (idf[k] as number), 0);
      wts.push(sum);
      const dim = (E[0] as number[]).length;
      e.push(Array.from({ length: dim }, (_, d) => win.reduce((a, k) => a + ((idf[k] as number) / (sum + 0.00001)) * ((E[k] as number[])[d] as number), 0)));
    }
    return { e, idf: wts };
  };
  const r = loadNgram(ref, idfRef);
  const h = loadNgram(hyp, idfHyp);
  const raw = [...r.e, ...h.e].map((v) => {
    const s = l2(v) + 0.000001;
    return v.map((x) => x / s);
  });
  const dist = pairwise(raw, false);
  const c1 = [...r.idf, ...h.idf.map(() => 0)];
  const c2 = [...r.idf.map(() => 0), ...h.idf];
  const s1 = c1.reduce((a, x) => a + x, 0);
  const s2 = c2.reduce((a, x) => a + x, 0);
  return 1 - lpTransport(highs, c1.map((x) => x / (s1 + 0.00001)), c2.map((x) => x / (s2 + 0.00001)), dist).distance;
}

function referenceV2(highs: Highs, ref: EmbeddedText, hyp: EmbeddedText, idfRef: (id: number) => number, idfHyp: (id: number) => number, L: number): number {
  const prep = (t: EmbeddedText, idfF: (id: number) => number): { e: number[][]; idf: number[] } => {
    const drop = (w: string): boolean => w.includes('##') || (w.length === 1 && PUNCT.includes(w));
    return { e: t.tokens.map((w, k) => (drop(w) ? vec(t, L, 0).map(() => 0) : vec(t, L, k))), idf: t.tokens.map((w, k) => (drop(w) ? 0 : idfF(t.ids[k] as number))) };
  };
  const r = prep(ref, idfRef);
  const h = prep(hyp, idfHyp);
  const raw = [...r.e, ...h.e].map((v) => {
    const s = l2(v) + 1e-30;
    return v.map((x) => x / s);
  });
  const dist = pairwise(raw, true);
  const c1 = [...r.idf, ...h.idf.map(() => 0)];
  const c2 = [...r.idf.map(() => 0), ...h.idf];
  const s1 = c1.reduce((a, x) => a + x, 0);
  const s2 = c2.reduce((a, x) => a + x, 0);
  return 1 - lpTransport(highs, c1.map((x) => x / (s1 + 1e-30)), c2.map((x) => x / (s2 + 1e-30)), dist).cost;
}

function corpus(seed: number, size: number, enc: EncoderIdentity): EmbeddedInstance[] {
  const rand = seededRandom(seed);
  return Array.from({ length: size }, () => ({
    hyp: randomText(rand, 1 + Math.floor(rand() * 12), enc),
    refs: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => randomText(rand, 1 + Math.floor(rand() * 12), enc)),
  }));
}

describe('MoverScore equals a plain reference recomputation (HiGHS LP) to 1e-6', () => {
  const enc = syntheticEncoder(7, 6);
  const cases: { name: string; options: Record<string, unknown>; size: number }[] = [
    { name: 'v1, unigrams, corpus idf', options: {}, size: 90 },
    { name: 'v1, bigrams, corpus idf, max over references', options: { ngram: 2, refsAggregation: 'max' }, size: 50 },
    { name: 'v1, unigrams, uniform idf, stop words', options: { idf: 'uniform', stopWords: ['the', 'a', 'of'] }, size: 40 },
    { name: 'v2, corpus idf', options: { variant: 'v2' }, size: 50 },
  ];
  it.each(cases)('$name', async ({ options, size }) => {
    const highs = await loadHighs();
    const instances = corpus(size * 7 + JSON.stringify(options).length, size, enc);
    const mine = runEmbeddingMetric(MOVERSCORE_PLUGIN, instances, options, enc);
    const uniform = options['idf'] === 'uniform';
    const idfHyp = uniform ? (): number => 1 : getIdfDict(instances.map((i) => [...i.hyp.ids]));
    const idfRef = uniform ? (): number => 1 : getIdfDict(instances.flatMap((i) => i.refs.map((r) => [...r.ids])));
    const stop = (options['stopWords'] as string[] | undefined) ?? [];
    instances.forEach((inst, k) => {
      const per = inst.refs.map((r) =>
        options['variant'] === 'v2' ? referenceV2(highs, r, inst.hyp, idfRef, idfHyp, enc.numLayers) : referenceV1(highs, r, inst.hyp, idfRef, idfHyp, (options['ngram'] as number | undefined) ?? 1, stop, enc.numLayers),
      );
      const expected = options['refsAggregation'] === 'max' ? Math.max(...per) : per.reduce((a, x) => a + x, 0) / per.length;
      const got = (mine.scores[k] as { score: number }).score;
      if (Math.abs(got - expected) > 1e-6) throw new Error(`instance ${k}: ${got} vs reference ${expected}`);
    });
  }, 600_000);
});

describe('MoverScore', () => {
  const enc = syntheticEncoder(7, 6);
  it('scores a hypothesis identical to its reference 1, and a different one lower', () => {
    const rand = seededRandom(5);
    const a = randomText(rand, 6, enc);
    const b = randomText(rand, 6, enc);
    const r = runEmbeddingMetric(MOVERSCORE_PLUGIN, [{ hyp: a, refs: [a] }, { hyp: b, refs: [a] }], { idf: 'uniform' }, enc);
    expect((r.scores[0] as { score: number }).score).toBeCloseTo(1, 12);
    expect((r.scores[1] as { score: number }).score).toBeLessThan(1);
  });

  it('reads the last five layers (v1) or the last (v2), and writes every choice in the signature', () => {
    expect(MOVERSCORE_PLUGIN.layers({}, enc)).toEqual([3, 4, 5, 6, 7]);
    expect(MOVERSCORE_PLUGIN.layers({ variant: 'v2' }, enc)).toEqual([7]);
    expect(MOVERSCORE_PLUGIN.layers({}, syntheticEncoder(2, 4))).toEqual([1, 2]);
    const o = MOVERSCORE_PLUGIN.definition.options.parse({ ngram: 2, stopWords: ['the'] });
    expect(MOVERSCORE_PLUGIN.signature(o, enc, 2)).toMatch(
      /^moverscore\|model:synthetic@abababababab\|variant:v1\|layers:3-7\|emb:pmeans-min,mean,max\|ngram:2\|idf:corpus\|subwords:removed\|punct:removed\|stop:1@[0-9a-f]{8}\|cost:sqeuclid\|refs:mean\|nrefs:2\|version:podium-/,
    );
    expect(() => MOVERSCORE_PLUGIN.definition.options.parse({ variant: 'v2', ngram: 2 })).toThrow(/unigrams only/);
    expect(() => MOVERSCORE_PLUGIN.definition.options.parse({ foo: 1 })).toThrow();
  });

  it('says which hidden state is missing', () => {
    const rand = seededRandom(1);
    const t = randomText(rand, 3, enc, [7]);
    expect(() => runEmbeddingMetric(MOVERSCORE_PLUGIN, [{ hyp: t, refs: [t] }], {}, enc)).toThrow(/hidden state 3 was not embedded/);
  });
});
