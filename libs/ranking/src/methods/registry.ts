import { bradleyTerryMethod } from './bradley-terry';
import { corpusMethod } from './corpus';
import { eloMethod } from './elo';
import { meanMethod } from './mean';
import { meanWinRateMethod } from './mean-win-rate';
import { medianMethod } from './median';
import type { RankingMethod } from './method';
import { trueSkillMethod } from './trueskill';

/** Every ranking method, in the order boards, CSV columns and tables list them. */
export const RANKING_METHODS: readonly RankingMethod[] = [corpusMethod, meanMethod, medianMethod, bradleyTerryMethod, eloMethod, trueSkillMethod, meanWinRateMethod];

/** The method with this key, or undefined. */
export function rankingMethod(key: string): RankingMethod | undefined {
  return RANKING_METHODS.find((m) => m.key === key);
}
