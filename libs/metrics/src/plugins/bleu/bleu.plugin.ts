/**
 * The BLEU plugin (sacreBLEU 2.x): registry facts, options with sacreBLEU's defaults, the
 * factory and the reference vectors of the shared conformance test.
 */
import { z } from 'zod';
import { WMT17_C3MA_HYPS, WMT17_DEEN_REFS } from '../../conformance-fixtures';
import type { ComputedMetricPlugin } from '../../plugin';
import { corpusFromSummedRows } from '../../stats';
import { BLEU_TOKENIZERS, isBleuTokenizerName } from '../../tokenizers';
import { VERSIONED, withName } from '../signature';
import { BLEU_SMOOTH_METHODS, bleuFromStats, bleuSignature, bleuStats, resolveBleuConfig, type BleuSmoothMethod } from './bleu';

/** BLEU's options with sacreBLEU's defaults (`smoothValue` depends on `smooth`, so it has none here). */
export const bleuOptionsSchema = z.strictObject({
  tokenize: z
    .enum(BLEU_TOKENIZERS, { error: (iss) => `unknown BLEU tokenizer '${String(iss.input)}' (expected one of ${BLEU_TOKENIZERS.join(', ')})` })
    .default('13a'),
  lowercase: z.boolean().default(false),
  smooth: z
    .enum(BLEU_SMOOTH_METHODS, { error: (iss) => `unknown BLEU smoothing '${String(iss.input)}' (expected one of ${BLEU_SMOOTH_METHODS.join(', ')})` })
    .default('exp'),
  smoothValue: z.number().min(0).optional(),
  effectiveOrder: z.boolean().default(false),
  sentenceEffectiveOrder: z.boolean().default(true),
  maxNgramOrder: z.number().int().min(1).max(10).default(4),
});

/** BLEU from clipped n-gram counts; corpus score from summed statistics (sacreBLEU `corpus_score`). */
export const BLEU_PLUGIN: ComputedMetricPlugin<'bleu'> = {
  capability: 'statistics',
  definition: {
    name: 'bleu',
    displayName: 'BLEU',
    capability: 'statistics',
    kind: 'corpus',
    higherIsBetter: true,
    range: [0, 100],
    options: bleuOptionsSchema,
    signatureFormat: `bleu|nrefs:<n>|case:<mixed|lc>|eff:<yes|no>|tok:<tokenizer>|smooth:<method>[<value>]|${VERSIONED}`,
    description: 'BLEU from clipped n-gram counts (sacreBLEU 2.x); corpus score from summed statistics',
  },
  create(options, nrefs) {
    const o = options as { tokenize?: string; smooth?: BleuSmoothMethod } & Record<string, unknown>;
    const c = resolveBleuConfig({ ...o, tokenize: o.tokenize !== undefined && isBleuTokenizerName(o.tokenize) ? o.tokenize : undefined });
    const corpusFromSum = (sum: readonly number[]) => bleuFromStats(sum, c, c.effectiveOrder);
    return {
      name: 'bleu',
      signature: withName('bleu', bleuSignature(c, nrefs, c.effectiveOrder)),
      sentenceSignature: withName('bleu', bleuSignature(c, nrefs, c.sentenceEffectiveOrder)),
      higherIsBetter: BLEU_PLUGIN.definition.higherIsBetter,
      range: [BLEU_PLUGIN.definition.range[0], BLEU_PLUGIN.definition.range[1]],
      refAggregation: 'n-gram counts clipped by their maximum count over references; closest reference length',
      additiveStats: true,
      stats: (hyp, refs) => bleuStats(c, hyp, refs),
      corpusFromSum,
      corpusFromStats: corpusFromSummedRows(corpusFromSum),
      sentenceFromStats: (row) => bleuFromStats(row, c, c.sentenceEffectiveOrder),
    };
  },
  conformance: [
    {
      hyps: WMT17_C3MA_HYPS,
      refs: [WMT17_DEEN_REFS],
      instances: [19.64073254502565, 61.587874428306336, 31.49667554986569],
      tolerance: 1e-9,
      source: 'sacreBLEU 2.6.0 sentence_bleu, test/golden/sacrebleu-wmt17-de-en.json C-3MA.4958 bleu.sentence_first100[0..2]',
    },
    {
      hyps: ['a b c d'],
      refs: [['a b x y'], ['x y c d']],
      corpus: 45.18010018049227,
      tolerance: 1e-9,
      source: 'sacreBLEU 2.x corpus_score by hand: p = 4/4, 2/3, 0/2, 0/1 with exp smoothing, BP 1 (bleu.spec.ts)',
    },
  ],
};
