import type { Aggregation } from './leaderboard';
import type { PValueCorrection, PairedTest } from '../graphql/generated';

/** What a leaderboard link pins down; null means "the API's default". */
export interface LeaderboardState {
  phase: string | null;
  metric: string | null;
  /** The ranking method to rank by; null: the board's main ranking (its `mainAggregation`). */
  aggregation: Aggregation | null;
  test: PairedTest | null;
  /** The p-value correction; null: the API's default (the first of `pValueCorrections`). */
  correction: PValueCorrection | null;
}

/** By default a board is ranked by its main ranking, which the board names (`mainAggregation`), with the API's default test and correction. */
export const DEFAULT_STATE: LeaderboardState = { phase: null, metric: null, aggregation: null, test: null, correction: null };

function oneOf<T extends string>(values: readonly T[], raw: string | null): T | null {
  if (raw === null) return null;
  const v = raw.toUpperCase();
  return values.find((x) => x.toUpperCase() === v) ?? null;
}

/** A ranking method key as the URL may name it (the board says whether it has that method). */
function methodKey(raw: string | null): Aggregation | null {
  const v = raw?.toLowerCase() ?? null;
  return v !== null && /^[a-z][a-z0-9_]{0,39}$/.test(v) ? v : null;
}

/**
 * Reads the leaderboard state from a query string; unknown values fall back to defaults. `tests`
 * and `corrections`: what a view may choose, from the API's registries (lib/test-registry.ts).
 */
export function parseLeaderboardState(search: string, tests: readonly PairedTest[], corrections: readonly PValueCorrection[]): LeaderboardState {
  const q = new URLSearchParams(search);
  return {
    phase: q.get('phase') || null,
    metric: q.get('metric') || null,
    aggregation: methodKey(q.get('agg')),
    test: oneOf(tests, q.get('test')),
    correction: oneOf(corrections, q.get('correction')),
  };
}

/**
 * Writes the state into a query string, leaving defaults out so links stay short; other
 * parameters already in `base` (e.g. the paired view's systems) are kept.
 */
export function serializeLeaderboardState(state: LeaderboardState, base = ''): string {
  const q = new URLSearchParams(base);
  const set = (key: string, value: string | null, fallback: string | null) => {
    if (value === null || value === fallback) q.delete(key);
    else q.set(key, value);
  };
  set('phase', state.phase, null);
  set('metric', state.metric, null);
  set('agg', state.aggregation, null);
  set('test', state.test?.toLowerCase() ?? null, null);
  set('correction', state.correction?.toLowerCase() ?? null, null);
  const s = q.toString();
  return s ? `?${s}` : '';
}
