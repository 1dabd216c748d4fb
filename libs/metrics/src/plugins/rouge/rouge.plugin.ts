/**
 * The ROUGE plugins (Google rouge-score): ROUGE-1, -2, -L and -Lsum share options, tokenizer
 * and statistics rows `[precision, recall, fmeasure]`; the corpus score is the mean F-measure.
 */
import { z } from 'zod';
import type { ComputedMetricPlugin, ConformanceCase } from '../../plugin';
import { sumStats } from '../../stats';
import { VERSIONED, withName } from '../signature';
import { resolveRougeConfig, rougeSignature, rougeStats, type RougeType } from './rouge';

/** ROUGE's options (rouge-score's defaults); it always lowercases. */
export const rougeOptionsSchema = z.strictObject({
  stem: z.boolean().default(false),
  lowercase: z.literal(true, { error: 'ROUGE always lowercases (rouge-score tokenizer); lowercase=false is not supported' }).optional(),
});

/** The rouge-score README pair (google-research/google-research rouge/README.md, `use_stemmer=True`). */
const README_PAIR = { hyps: ['The quick brown dog jumps on the log.'], refs: [['The quick brown fox jumps over the lazy dog']], options: { stem: true } };
const README = 'rouge-score README example (RougeScorer(use_stemmer=True)): ';
const CONFORMANCE: Record<RougeType, readonly ConformanceCase[]> = {
  rouge1: [{ ...README_PAIR, instances: [0.7058823529411765], corpus: 0.7058823529411765, tolerance: 1e-10, source: `${README}rouge1 F 0.7059` }],
  rouge2: [{ ...README_PAIR, instances: [(2 * (2 / 7) * (2 / 8)) / (2 / 7 + 2 / 8)], tolerance: 1e-10, source: `${README}rouge2 bigrams "the quick", "quick brown": P 2/7, R 2/8` }],
  rougeL: [{ ...README_PAIR, instances: [0.5882352941176471], tolerance: 1e-10, source: `${README}rougeL F 0.5882` }],
  // One sentence per side: the summary-level LCS is the LCS, so rougeLsum equals rougeL (rouge-score).
  rougeLsum: [{ ...README_PAIR, instances: [0.5882352941176471], tolerance: 1e-10, source: `${README}rougeL F 0.5882 (one sentence: rougeLsum = rougeL)` }],
};

const DISPLAY: Record<RougeType, string> = { rouge1: 'ROUGE-1', rouge2: 'ROUGE-2', rougeL: 'ROUGE-L', rougeLsum: 'ROUGE-Lsum' };

function rougePlugin<N extends RougeType>(name: N): ComputedMetricPlugin<N> {
  const plugin: ComputedMetricPlugin<N> = {
    capability: 'instance',
    definition: {
      name,
      displayName: DISPLAY[name],
      capability: 'instance',
      kind: 'sentence',
      higherIsBetter: true,
      range: [0, 1],
      options: rougeOptionsSchema,
      signatureFormat: `${name}|nrefs:<n>|case:lc|tok:rouge-score|stem:<yes|no>|multi:max|${VERSIONED}`,
      description: `${name} F-measure (Google rouge-score); corpus score is the mean over instances`,
      ...(name === 'rougeLsum' ? { newlineSeparatesSentences: true } : {}),
    },
    create(options, nrefs) {
      const c = resolveRougeConfig(options);
      const sig = withName(name, rougeSignature(c, nrefs));
      return {
        name,
        signature: sig,
        sentenceSignature: sig,
        higherIsBetter: plugin.definition.higherIsBetter,
        range: [plugin.definition.range[0], plugin.definition.range[1]],
        refAggregation: 'reference with the highest F-measure (rouge-score score_multi)',
        additiveStats: false,
        stats: (hyp, refs) => rougeStats(name, c, hyp, refs),
        // Rows are [precision, recall, fmeasure]; the corpus score is the mean F-measure.
        corpusFromSum: (sum, count) => (count > 0 ? (sum[2] ?? 0) / count : 0),
        corpusFromStats: (rows) => (rows.length > 0 ? (sumStats(rows)[2] ?? 0) / rows.length : 0),
        sentenceFromStats: (row) => row[2] ?? 0,
      };
    },
    conformance: CONFORMANCE[name],
  };
  return plugin;
}

export const ROUGE1_PLUGIN = rougePlugin('rouge1');
export const ROUGE2_PLUGIN = rougePlugin('rouge2');
export const ROUGEL_PLUGIN = rougePlugin('rougeL');
export const ROUGELSUM_PLUGIN = rougePlugin('rougeLsum');
