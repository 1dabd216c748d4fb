import type { MetricFolder } from '../../plugin';
import { ROUGE1_PLUGIN, ROUGE2_PLUGIN, ROUGEL_PLUGIN, ROUGELSUM_PLUGIN } from './rouge.plugin';

export { ROUGE1_PLUGIN, ROUGE2_PLUGIN, ROUGEL_PLUGIN, ROUGELSUM_PLUGIN, rougeOptionsSchema } from './rouge.plugin';
export {
  rougeScore,
  rougeStats,
  rougeTokens,
  rougeN,
  rougeL,
  rougeLsum,
  resolveRougeConfig,
  type RougeConfig,
  type RougePrf,
  type RougeType,
} from './rouge';
export { porterStem } from './porter-stemmer';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 40, plugins: [ROUGE1_PLUGIN, ROUGE2_PLUGIN, ROUGEL_PLUGIN, ROUGELSUM_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    rouge: typeof METRIC_FOLDER;
  }
}
