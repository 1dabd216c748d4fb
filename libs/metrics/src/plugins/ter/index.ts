import type { MetricFolder } from '../../plugin';
import { TER_PLUGIN } from './ter.plugin';

export { TER_PLUGIN, terOptionsSchema } from './ter.plugin';
export { terEdits, terFromStats, terStats, terTokens, resolveTerConfig, type TerConfig } from './ter';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 30, plugins: [TER_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    ter: typeof METRIC_FOLDER;
  }
}
