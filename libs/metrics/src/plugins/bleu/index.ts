import type { MetricFolder } from '../../plugin';
import { BLEU_PLUGIN } from './bleu.plugin';

export { BLEU_PLUGIN, bleuOptionsSchema } from './bleu.plugin';
export {
  BLEU_SMOOTH_METHODS,
  bleuFromStats,
  bleuStats,
  bleuStatsFromTokens,
  bleuTokens,
  closestRefLength,
  resolveBleuConfig,
  type BleuConfig,
  type BleuSmoothMethod,
} from './bleu';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 10, plugins: [BLEU_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    bleu: typeof METRIC_FOLDER;
  }
}
