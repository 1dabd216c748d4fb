/**
 * The BERTScore plugin (capability `embedding`): options, default layer per model as
 * `bert_score`'s `model2layers`, idf from the references, baseline rescaling from the published
 * per-model baseline files (fetched by the host through the datasets registry, `hostFiles`),
 * best over several references. The instance score is F1, as `bert_score` reports it; P and R
 * are components. The encoder runs in the host (`@podium/embeddings`).
 */
import { z } from 'zod';
import type { EmbeddedInstance, EmbeddingMetricPlugin, EncoderIdentity, TokenizedCorpus } from '../../embedding';
import { PODIUM_METRICS_VERSION } from '../../version';
import { bestOver, greedyMatch, idfFromReferences, parseBaseline, rescale, type BertScoreBaseline, type IdfTable } from './bertscore';
import { BERTSCORE_CONFORMANCE } from './conformance-cases';

/** bert_score's `model2layers` (utils.py, 0.3.13): the layer its authors found best per model. */
export const BERTSCORE_MODEL_LAYERS: Readonly<Record<string, number>> = {
  'bert-base-uncased': 9,
  'bert-large-uncased': 18,
  'bert-base-cased-finetuned-mrpc': 9,
  'bert-base-multilingual-cased': 9,
  'bert-base-chinese': 8,
  'roberta-base': 10,
  'roberta-large': 17,
  'roberta-large-mnli': 19,
  'roberta-base-openai-detector': 7,
  'roberta-large-openai-detector': 15,
  'xlnet-base-cased': 5,
  'xlnet-large-cased': 7,
  'xlm-mlm-en-2048': 6,
  'xlm-mlm-100-1280': 10,
  'distilroberta-base': 5,
  'distilbert-base-uncased': 5,
  'distilbert-base-uncased-distilled-squad': 4,
  'distilbert-base-multilingual-cased': 5,
  'albert-base-v1': 10,
  'albert-large-v1': 17,
  'albert-xlarge-v1': 16,
  'albert-xxlarge-v1': 8,
  'albert-base-v2': 9,
  'albert-large-v2': 14,
  'albert-xlarge-v2': 13,
  'albert-xxlarge-v2': 8,
  'xlm-roberta-base': 9,
  'xlm-roberta-large': 17,
};

/** bert_score's `lang2model`: the default encoder per language (any other language: mBERT). */
export function bertScoreDefaultModel(lang: string): string {
  const byLang: Record<string, string> = { en: 'roberta-large', zh: 'bert-base-chinese', tr: 'dbmdz/bert-base-turkish-cased', 'en-sci': 'allenai/scibert_scivocab_uncased' };
  return byLang[lang] ?? 'bert-base-multilingual-cased';
}

/** Data set of the datasets registry holding bert_score's baseline files. */
export const BERTSCORE_BASELINE_DATASET = 'bertscore-baselines';

/** Path of a baseline file in {@link BERTSCORE_BASELINE_DATASET}. */
export function bertScoreBaselinePath(lang: string, model: string): string {
  return `experiments/metrics/bert_score/rescale_baseline/${lang}/${model}.tsv`;
}

export const bertScoreOptionsSchema = z.strictObject({
  /** Encoder (a models/ directory name); default the host's, per language as bert_score (`lang`). */
  model: z.string().min(1).optional(),
  /** Language of the texts: picks the default model and the baseline file. */
  lang: z.string().regex(/^[a-z]{2,3}(-sci)?$/, 'a language code such as en, de, zh').default('en'),
  /** Hidden-state index (0 = embeddings); default bert_score's layer for the model, else the last. */
  layer: z.number().int().min(0).optional(),
  /** idf weights from the reference set. */
  idf: z.boolean().default(false),
  /** Rescale with the published baseline of (lang, model, layer). */
  rescale: z.boolean().default(false),
  /** A baseline file's text (`LAYER,P,R,F`); the host fills it from the registry when rescaling. */
  baselineTsv: z.string().min(1).optional(),
});

/** Validated BERTScore options. */
export type BertScoreOptions = z.infer<typeof bertScoreOptionsSchema>;

function opts(options: Readonly<Record<string, unknown>>): BertScoreOptions {
  return bertScoreOptionsSchema.parse(options);
}

/** The hidden-state index BERTScore uses for this encoder and these options. */
export function bertScoreLayer(options: Readonly<Record<string, unknown>>, encoder: EncoderIdentity): number {
  const o = opts(options);
  const layer = o.layer ?? BERTSCORE_MODEL_LAYERS[encoder.name] ?? encoder.numLayers;
  if (layer > encoder.numLayers) throw new RangeError(`bertscore: layer ${layer} is beyond ${encoder.name}'s ${encoder.numLayers} layers`);
  return layer;
}

interface BertScoreState {
  readonly idf: IdfTable | null;
  readonly baseline: BertScoreBaseline | null;
}

function baselineOf(o: BertScoreOptions, encoder: EncoderIdentity, layer: number): BertScoreBaseline | null {
  if (!o.rescale) return null;
  if (o.baselineTsv === undefined) throw new Error(`bertscore: rescaling needs the baseline of ${encoder.name} (${o.lang}); the host did not provide it`);
  return parseBaseline(o.baselineTsv, layer);
}

const fmt = (x: number) => x.toFixed(6);

export const BERTSCORE_PLUGIN: EmbeddingMetricPlugin<'bertscore', BertScoreState> = {
  capability: 'embedding',
  requirement: 'a text encoder (BERT-family ONNX model with hidden states)',
  compares: 'references',
  definition: {
    name: 'bertscore',
    displayName: 'BERTScore F1',
    capability: 'embedding',
    kind: 'sentence',
    higherIsBetter: true,
    range: [-1, 1],
    options: bertScoreOptionsSchema,
    signatureFormat: 'bertscore|model:<name>@<sha256 12>|L:<layer>|idf:<yes|no>|rescale:<no|P,R,F baseline>|nrefs:<n>|refs:best|version:<podium version>',
    description: 'BERTScore F1 (Zhang et al. 2020): greedy cosine matching of contextual token embeddings, as bert_score; corpus score is the mean over instances',
  },
  layers: (options, encoder) => [bertScoreLayer(options, encoder)],
  hostFiles(options, encoder) {
    const o = opts(options);
    if (!o.rescale || o.baselineTsv !== undefined) return [];
    return [{ dataset: BERTSCORE_BASELINE_DATASET, path: bertScoreBaselinePath(o.lang, encoder.name), into: 'baselineTsv', what: `bert_score's published baseline for ${encoder.name} (${o.lang})` }];
  },
  prepare(corpus: TokenizedCorpus, options, encoder): BertScoreState {
    const o = opts(options);
    const layer = bertScoreLayer(o, encoder);
    return { idf: o.idf ? idfFromReferences(corpus.refs.flat()) : null, baseline: baselineOf(o, encoder, layer) };
  },
  scoreInstance(_index: number, instance: EmbeddedInstance, state: BertScoreState) {
    const best = bestOver(instance.refs.map((ref) => greedyMatch(instance.hyp, ref, 0, state.idf)));
    const s = state.baseline === null ? best : rescale(best, state.baseline);
    return { score: s.f, components: { P: s.p, R: s.r, F1: s.f } };
  },
  signature(options, encoder, nrefs) {
    const o = opts(options);
    const layer = bertScoreLayer(o, encoder);
    const b = baselineOf(o, encoder, layer);
    const rescaled = b === null ? 'no' : `${fmt(b.p)},${fmt(b.r)},${fmt(b.f)}`;
    return `bertscore|model:${encoder.name}@${encoder.sha256.slice(0, 12)}|L:${layer}|idf:${o.idf ? 'yes' : 'no'}|rescale:${rescaled}|nrefs:${nrefs}|refs:best|version:${PODIUM_METRICS_VERSION}`;
  },
  conformance: BERTSCORE_CONFORMANCE,
};
