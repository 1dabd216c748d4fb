export { XMOVERSCORE_PLUGIN, resolveXMoverMapping, xMoverScoreOptionsSchema, xMoverDistanceScore, remap, ngramMeans, dropSmallFlows, FLOW_TOLERANCE } from './xmoverscore.plugin';
export type { XMoverScoreOptions, XMoverScoreState } from './xmoverscore.plugin';
export { parseXMoverMapping, formatXMoverMapping, mappingFingerprint, fitXMoverMapping, wordVectors, mutualNearestNeighbours, parseNpy, decodeXMoverMapping, XMOVER_MAPPING_DATASET, xMoverMappingPath } from './mapping';
export type { NpyArray } from './mapping';
export type { FittedXMoverMapping, XMoverMappingKind } from './mapping';
