/**
 * The chrF and chrF++ plugins (sacreBLEU 2.x): chrF++ is chrF with word bigrams, so both live
 * in this folder and differ in the default word order only.
 */
import { z } from 'zod';
import { WMT17_C3MA_HYPS, WMT17_DEEN_REFS } from '../../conformance-fixtures';
import type { ComputedMetricPlugin, MetricDefinition } from '../../plugin';
import { corpusFromSummedRows } from '../../stats';
import { VERSIONED, withName } from '../signature';
import { chrfFromStats, chrfSignature, chrfStats, resolveChrfConfig } from './chrf';

/** chrF's options (sacreBLEU's defaults) with the default word order of the variant. */
export function chrfOptionsSchema(wordOrder: number) {
  return z
    .strictObject({
      lowercase: z.boolean().default(false),
      charOrder: z.number().int().min(0).max(10).default(6),
      wordOrder: z.number().int().min(0).max(4).default(wordOrder),
      beta: z.number().min(1).default(2),
      whitespace: z.boolean().default(false),
      epsSmoothing: z.boolean().default(false),
    })
    .refine((o) => o.charOrder + o.wordOrder > 0, { error: 'chrF needs a positive char or word order' });
}

function chrfPlugin<N extends 'chrf' | 'chrf++'>(definition: MetricDefinition<N>, conformance: ComputedMetricPlugin['conformance']): ComputedMetricPlugin<N> {
  return {
    capability: 'statistics',
    definition,
    create(options, nrefs) {
      const c = resolveChrfConfig(options, definition.name === 'chrf++');
      const sig = withName(definition.name, chrfSignature(c, nrefs));
      const corpusFromSum = (sum: readonly number[]) => chrfFromStats(sum, c);
      return {
        name: definition.name,
        signature: sig,
        sentenceSignature: sig,
        higherIsBetter: definition.higherIsBetter,
        range: [definition.range[0], definition.range[1]],
        refAggregation: 'statistics of the reference with the best sentence-level chrF',
        additiveStats: true,
        stats: (hyp, refs) => chrfStats(c, hyp, refs),
        corpusFromSum,
        corpusFromStats: corpusFromSummedRows(corpusFromSum),
        sentenceFromStats: (row) => chrfFromStats(row, c),
      };
    },
    conformance,
  };
}

/** Character n-gram F-score (sacreBLEU 2.x `CHRF`). */
export const CHRF_PLUGIN = chrfPlugin(
  {
    name: 'chrf',
    displayName: 'chrF',
    capability: 'statistics',
    kind: 'corpus',
    higherIsBetter: true,
    range: [0, 100],
    options: chrfOptionsSchema(0),
    signatureFormat: `chrf|nrefs:<n>|case:<mixed|lc>|eff:yes|nc:<char order>|nw:<word order>|space:<yes|no>|${VERSIONED}`,
    description: 'character n-gram F-score (sacreBLEU 2.x)',
  },
  [
    {
      hyps: WMT17_C3MA_HYPS,
      refs: [WMT17_DEEN_REFS],
      instances: [50.64937196997531, 76.35739865850591, 49.99443172053512],
      tolerance: 1e-9,
      source: 'sacreBLEU 2.6.0 sentence_chrf, test/golden/sacrebleu-wmt17-de-en.json C-3MA.4958 chrf.sentence_first100[0..2]',
    },
    {
      hyps: ['a'],
      refs: [['abc']],
      corpus: 38.46153846153846,
      tolerance: 1e-9,
      source: 'sacreBLEU 2.x CHRF by hand: effective order 1, P 1, R 1/3, F2 = 5·⅓/(4 + ⅓) (chrf.spec.ts)',
    },
  ],
);

/** chrF with word unigrams and bigrams (sacreBLEU 2.x `CHRF(word_order=2)`). */
export const CHRF_PLUS_PLUS_PLUGIN = chrfPlugin(
  {
    name: 'chrf++',
    displayName: 'chrF++',
    capability: 'statistics',
    kind: 'corpus',
    higherIsBetter: true,
    range: [0, 100],
    options: chrfOptionsSchema(2),
    signatureFormat: `chrf++|nrefs:<n>|case:<mixed|lc>|eff:yes|nc:<char order>|nw:<word order>|space:<yes|no>|${VERSIONED}`,
    description: 'chrF with word bigrams (sacreBLEU 2.x)',
  },
  [
    {
      hyps: ['hello world'],
      refs: [['hello world']],
      corpus: 100,
      tolerance: 1e-9,
      source: 'sacreBLEU 2.x CHRF(word_order=2): an identical segment scores 100',
    },
  ],
);
