export { TER_PLUGIN, terOptionsSchema } from './ter.plugin';
export { terEdits, terFromStats, terStats, terTokens, resolveTerConfig, type TerConfig } from './ter';
