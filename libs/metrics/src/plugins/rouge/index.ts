export { ROUGE1_PLUGIN, ROUGE2_PLUGIN, ROUGEL_PLUGIN, ROUGELSUM_PLUGIN, rougeOptionsSchema } from './rouge.plugin';
export {
  rougeScore,
  rougeStats,
  rougeTokens,
  rougeN,
  rougeL,
  rougeLsum,
  resolveRougeConfig,
  type RougeConfig,
  type RougePrf,
  type RougeType,
} from './rouge';
export { porterStem } from './porter-stemmer';
