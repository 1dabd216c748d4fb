import type { MetricFolder } from '../../plugin';
import { CHRF_PLUGIN, CHRF_PLUS_PLUS_PLUGIN } from './chrf.plugin';

export { CHRF_PLUGIN, CHRF_PLUS_PLUS_PLUGIN, chrfOptionsSchema } from './chrf.plugin';
export { chrfFromStats, chrfStats, chrfWords, resolveChrfConfig, type ChrfConfig } from './chrf';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 20, plugins: [CHRF_PLUGIN, CHRF_PLUS_PLUS_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    chrf: typeof METRIC_FOLDER;
  }
}
