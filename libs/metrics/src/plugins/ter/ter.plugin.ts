/** The TER plugin (sacreBLEU 2.x, tercom): lower is better, no upper bound. */
import { z } from 'zod';
import { WMT17_C3MA_HYPS, WMT17_DEEN_REFS } from '../../conformance-fixtures';
import type { ComputedMetricPlugin } from '../../plugin';
import { sumStats } from '../../stats';
import { VERSIONED, withName } from '../signature';
import { resolveTerConfig, terFromStats, terSignature, terStats } from './ter';

/** TER's options (sacreBLEU's defaults); `lowercase` is the inverse of `caseSensitive`, so neither has a default here. */
export const terOptionsSchema = z
  .strictObject({
    tokenize: z.literal('tercom', { error: (iss) => `TER uses its own tokenizer 'tercom' (got '${String(iss.input)}'); use normalized/noPunct/asianSupport instead` }).optional(),
    lowercase: z.boolean().optional(),
    normalized: z.boolean().default(false),
    noPunct: z.boolean().default(false),
    asianSupport: z.boolean().default(false),
    caseSensitive: z.boolean().optional(),
  })
  .refine((o) => o.lowercase === undefined || o.caseSensitive === undefined || o.lowercase !== o.caseSensitive, {
    error: 'TER options lowercase and caseSensitive contradict each other',
  });

/** Translation edit rate with shifts: corpus score from summed edits and reference lengths. */
export const TER_PLUGIN: ComputedMetricPlugin<'ter'> = {
  capability: 'statistics',
  definition: {
    name: 'ter',
    displayName: 'TER',
    capability: 'statistics',
    kind: 'corpus',
    higherIsBetter: false,
    range: [0, Number.POSITIVE_INFINITY],
    options: terOptionsSchema,
    signatureFormat: `ter|nrefs:<n>|case:<mixed|lc>|tok:tercom|norm:<yes|no>|punct:<yes|no>|asian:<yes|no>|${VERSIONED}`,
    description: 'translation edit rate with shifts (sacreBLEU 2.x, tercom); lower is better',
  },
  create(options, nrefs) {
    const c = resolveTerConfig(options);
    const sig = withName('ter', terSignature(c, nrefs));
    return {
      name: 'ter',
      signature: sig,
      sentenceSignature: sig,
      higherIsBetter: TER_PLUGIN.definition.higherIsBetter,
      range: [TER_PLUGIN.definition.range[0], TER_PLUGIN.definition.range[1]],
      refAggregation: 'fewest edits over references, divided by the average reference length',
      additiveStats: true,
      stats: (hyp, refs) => terStats(c, hyp, refs),
      corpusFromSum: (sum) => terFromStats(sum),
      corpusFromStats: (rows) => terFromStats(sumStats(rows)),
      sentenceFromStats: (row) => terFromStats(row),
    };
  },
  conformance: [
    {
      hyps: WMT17_C3MA_HYPS,
      refs: [WMT17_DEEN_REFS],
      instances: [12.5, 27.27272727272727, 50.0],
      tolerance: 1e-9,
      source: 'sacreBLEU 2.6.0 sentence_ter, test/golden/sacrebleu-wmt17-de-en.json C-3MA.4958 ter.sentence_first100[0..2]',
    },
    {
      hyps: ['a b c', 'x y'],
      refs: [['a b d', 'x y']],
      corpus: 20,
      tolerance: 1e-9,
      source: 'sacreBLEU 2.x TER by hand: (1 + 0) edits over (3 + 2) reference words (ter.spec.ts)',
    },
  ],
};
