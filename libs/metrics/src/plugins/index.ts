/**
 * The metric plugins, one folder each; the registry (`../registry.ts`) is built from this list
 * and `MetricName` is derived from it. Adding a metric: a folder exporting a plugin, and its
 * line here (ADR 0022). Order is display order: classical metrics, then model, then derived.
 */
import { BERTSCORE_PLUGIN } from './bertscore';
import { BLEU_PLUGIN } from './bleu';
import { CHRF_PLUGIN, CHRF_PLUS_PLUS_PLUGIN } from './chrf';
import { COMBINED_PLUGIN } from './combined';
import { DS_FOCUS_PLUGIN, DS_SENT_PLUGIN } from './discoscore';
import { MOVERSCORE_PLUGIN } from './moverscore';
import { NLI_PLUGIN } from './nli';
import { ROUGE1_PLUGIN, ROUGE2_PLUGIN, ROUGEL_PLUGIN, ROUGELSUM_PLUGIN } from './rouge';
import { TER_PLUGIN } from './ter';
import { XMOVERSCORE_PLUGIN } from './xmoverscore';

/** The plugins this library scores from the texts (`statistics` and `instance`). */
export const COMPUTED_METRIC_PLUGINS = [
  BLEU_PLUGIN,
  CHRF_PLUGIN,
  CHRF_PLUS_PLUS_PLUGIN,
  TER_PLUGIN,
  ROUGE1_PLUGIN,
  ROUGE2_PLUGIN,
  ROUGEL_PLUGIN,
  ROUGELSUM_PLUGIN,
] as const;

/**
 * The plugins scored from a text encoder's vectors (`embedding`, contract in `../embedding.ts`):
 * the host runs the encoder and hands the vectors over, whatever the metric.
 */
export const EMBEDDING_METRIC_PLUGINS = [BERTSCORE_PLUGIN, MOVERSCORE_PLUGIN, XMOVERSCORE_PLUGIN, DS_FOCUS_PLUGIN, DS_SENT_PLUGIN] as const;

/** Every plugin: the computed ones, then those a host completes (model, embedding) or derives (combined). */
export const METRIC_PLUGINS = [...COMPUTED_METRIC_PLUGINS, NLI_PLUGIN, ...EMBEDDING_METRIC_PLUGINS, COMBINED_PLUGIN] as const;
