import type { MetricFolder } from '../../plugin';
import { XMOVERSCORE_PLUGIN } from './xmoverscore.plugin';

export { XMOVERSCORE_PLUGIN, resolveXMoverMapping, xMoverScoreOptionsSchema, xMoverDistanceScore, remap, ngramMeans, dropSmallFlows, FLOW_TOLERANCE } from './xmoverscore.plugin';
export type { XMoverScoreOptions, XMoverScoreState } from './xmoverscore.plugin';
export { parseXMoverMapping, formatXMoverMapping, mappingFingerprint, fitXMoverMapping, wordVectors, mutualNearestNeighbours, parseNpy, decodeXMoverMapping, XMOVER_MAPPING_DATASET, xMoverMappingPath } from './mapping';
export type { NpyArray } from './mapping';
export type { FittedXMoverMapping, XMoverMappingKind } from './mapping';

/** This folder's plugins, found by the registry (`../index.ts`, ADR 0033). */
export const METRIC_FOLDER = { order: 80, plugins: [XMOVERSCORE_PLUGIN] } as const satisfies MetricFolder;

declare module '../../plugin' {
  interface MetricFolders {
    xmoverscore: typeof METRIC_FOLDER;
  }
}
