import { z } from 'zod';
import { PairedTest, PValueCorrection } from './leaderboard.types';
import type { LeaderboardEntries } from './leaderboard-entries';

export const DEFAULT_SEED = 12345;
/** Upper bound of resamples an organiser may set (11 systems with Holm need 11,000). */
export const MAX_RESAMPLES = 100_000;
export const ALPHA = 0.05;
/** The pairs' `p` uses the paired t-test unless a test is chosen (mean is the default order). */
export const DEFAULT_PAIR_TEST = PairedTest.TTEST;
export const DEFAULT_CORRECTION = PValueCorrection.HOLM;

/**
 * Everything that selects one leaderboard of a phase besides its data: the stored board of a
 * view is keyed by {@link viewKey} and the phase's scoring stamp (which covers the phase's own
 * seed and resamples, so a view that uses them names them as null).
 */
export interface LeaderboardView {
  /** Metric key as asked for; '' is the task's first metric. */
  metric: string;
  entries: LeaderboardEntries;
  /** An explicitly chosen test, or null for the defaults (t-test for p, per-aggregation clusters). */
  test: PairedTest | null;
  correction: PValueCorrection;
  /** An organiser's preview seed, or null for the phase's. */
  seed: number | null;
  /** An organiser's preview resample count, or null for the phase's (itself null = chosen automatically). */
  resamples: number | null;
}

export const leaderboardViewSchema = z.object({
  metric: z.string().max(200),
  entries: z.enum(['primary', 'all']),
  test: z.enum(PairedTest).nullable(),
  correction: z.enum(PValueCorrection),
  seed: z.number().int().min(0).max(0x7fffffff).nullable(),
  resamples: z.number().int().min(1).max(MAX_RESAMPLES).nullable(),
}) satisfies z.ZodType<LeaderboardView>;

/** Stable key of a view (order of fields fixed). */
export function viewKey(v: LeaderboardView): string {
  return JSON.stringify([v.metric, v.entries, v.test, v.correction, v.seed, v.resamples]);
}

/** The phase's settings a view falls back to. */
export interface PhaseSignificanceSettings {
  significanceSeed: number | null;
  significanceResamples: number | null;
}

/** The seed and resamples a view is computed with (resamples undefined: chosen automatically). */
export function effectiveSettings(v: LeaderboardView, phase: PhaseSignificanceSettings): { seed: number; resamples: number | undefined } {
  return { seed: v.seed ?? phase.significanceSeed ?? DEFAULT_SEED, resamples: v.resamples ?? phase.significanceResamples ?? undefined };
}

/** Whether a view is one a worker computes ahead (every metric × entries with the phase's settings). */
export function isDefaultView(v: LeaderboardView): boolean {
  return v.test === null && v.correction === DEFAULT_CORRECTION && v.seed === null && v.resamples === null;
}

/** The default view for a metric and entries. */
export function defaultView(metric: string, entries: LeaderboardEntries): LeaderboardView {
  return { metric, entries, test: null, correction: DEFAULT_CORRECTION, seed: null, resamples: null };
}
