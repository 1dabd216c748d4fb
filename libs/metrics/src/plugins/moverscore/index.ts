export { MOVERSCORE_PLUGIN, moverScoreOptionsSchema, moverScoreLayers, moverScorePair, keepToken, powerMeanVectors, ngramPoints, MOVERSCORE_POWER_MEAN_LAYERS } from './moverscore.plugin';
export type { MoverScoreOptions, MoverScoreState } from './moverscore.plugin';
