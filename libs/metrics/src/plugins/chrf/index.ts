export { CHRF_PLUGIN, CHRF_PLUS_PLUS_PLUGIN, chrfOptionsSchema } from './chrf.plugin';
export { chrfFromStats, chrfStats, chrfWords, resolveChrfConfig, type ChrfConfig } from './chrf';
