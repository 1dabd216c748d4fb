export { BLEU_PLUGIN, bleuOptionsSchema } from './bleu.plugin';
export {
  BLEU_SMOOTH_METHODS,
  bleuFromStats,
  bleuStats,
  bleuStatsFromTokens,
  bleuTokens,
  closestRefLength,
  resolveBleuConfig,
  type BleuConfig,
  type BleuSmoothMethod,
} from './bleu';
