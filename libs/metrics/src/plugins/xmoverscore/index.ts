export { XMOVERSCORE_PLUGIN, xMoverScoreOptionsSchema, xMoverDistanceScore, remap, ngramMeans, dropSmallFlows, FLOW_TOLERANCE } from './xmoverscore.plugin';
export type { XMoverScoreOptions, XMoverScoreState } from './xmoverscore.plugin';
export { parseXMoverMapping, formatXMoverMapping, mappingFingerprint, fitXMoverMapping, wordVectors, mutualNearestNeighbours } from './mapping';
export type { FittedXMoverMapping, XMoverMappingKind } from './mapping';
