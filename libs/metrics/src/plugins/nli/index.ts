import type { MetricFolder } from '../../plugin';
import { NLI_PLUGIN } from './nli.plugin';

export { NLI_DIRECTIONS, NLI_FORMULAS, NLI_METRIC_DEFINITION, NLI_PLUGIN, nliOptionsSchema } from './nli.plugin';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 50, plugins: [NLI_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    nli: typeof METRIC_FOLDER;
  }
}
