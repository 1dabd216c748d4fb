import type { MetricFolder } from '../../plugin';
import { MOVERSCORE_PLUGIN } from './moverscore.plugin';

export { MOVERSCORE_PLUGIN, moverScoreOptionsSchema, moverScoreLayers, moverScorePair, keepToken, powerMeanVectors, ngramPoints, MOVERSCORE_POWER_MEAN_LAYERS } from './moverscore.plugin';
export type { MoverScoreOptions, MoverScoreState } from './moverscore.plugin';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 70, plugins: [MOVERSCORE_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    moverscore: typeof METRIC_FOLDER;
  }
}
