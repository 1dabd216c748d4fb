/**
 * What every embedding plugin of the MoverScore family promises a host, on seeded random
 * vectors: hidden states inside the encoder, finite scores inside the declared range,
 * determinism, a score independent of the other instances where the metric has no corpus state,
 * and a signature naming the metric and the encoder.
 */
import type { EmbeddedInstance, EmbeddingMetricPlugin } from '../../embedding';
import { DS_FOCUS_PLUGIN, DS_SENT_PLUGIN } from '../discoscore';
import { MOVERSCORE_PLUGIN } from '../moverscore';
import { XMOVERSCORE_PLUGIN } from '../xmoverscore';
import { runEmbeddingMetric } from './common';
import { randomText, seededRandom, syntheticEncoder } from './synthetic';

const enc = syntheticEncoder(9, 6);
const cases: [EmbeddingMetricPlugin, Record<string, unknown>, boolean][] = [
  [MOVERSCORE_PLUGIN, {}, true],
  [MOVERSCORE_PLUGIN, { variant: 'v2', idf: 'uniform' }, false],
  [XMOVERSCORE_PLUGIN, {}, false],
  [DS_FOCUS_PLUGIN, {}, false],
  [DS_SENT_PLUGIN, {}, false],
];

function instances(seed: number, n: number): EmbeddedInstance[] {
  const rand = seededRandom(seed);
  const sentence = (): ReturnType<typeof randomText> => randomText(rand, 2 + Math.floor(rand() * 10), enc);
  return Array.from({ length: n }, () => ({ hyp: sentence(), refs: [sentence(), sentence()], source: sentence() }));
}

describe.each(cases)('embedding plugin contract', (plugin, options, corpusState) => {
  const name = plugin.definition.name;
  it(`${name} ${JSON.stringify(options)}: layers within the encoder, finite scores in range, deterministic, signed`, () => {
    const parsed = plugin.definition.options.parse(options);
    for (const l of plugin.layers(parsed, enc)) expect(l >= 0 && l <= enc.numLayers).toBe(true);
    const batch = instances(9, 12);
    const a = runEmbeddingMetric(plugin, batch, options, enc);
    const b = runEmbeddingMetric(plugin, batch, options, enc);
    const [lo, hi] = plugin.definition.range;
    a.scores.forEach((s, k) => {
      expect(Number.isFinite(s.score)).toBe(true);
      expect(s.score).toBeGreaterThanOrEqual(lo - 1e-12);
      expect(s.score).toBeLessThanOrEqual(hi + 1e-12);
      expect(s.score).toBe(b.scores[k]?.score);
    });
    expect(a.signature.startsWith(`${name}|model:synthetic@abababababab|`)).toBe(true);
    expect(plugin.definition.capability as string).toBe('embedding');
    if (!corpusState) {
      // Without corpus-level state an instance scores the same alone as in its batch.
      const alone = runEmbeddingMetric(plugin, batch.slice(3, 4), options, enc);
      expect(alone.scores[0]?.score).toBe(a.scores[3]?.score);
    }
  });
});
