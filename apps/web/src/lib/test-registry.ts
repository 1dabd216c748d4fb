import { useSyncExternalStore } from 'react';
import type { PValueCorrection, PValueCorrectionsQuery, PairedTest, SignificanceTestsQuery } from '../graphql/generated';

/** One paired test as the API's `significanceTests` query describes it (the libs/ranking registry). */
export type TestFacts = SignificanceTestsQuery['significanceTests'][number];

let tests: readonly TestFacts[] = [];
const listeners = new Set<() => void>();

/** Replaces the registry the selectors and tables read; the app calls it once the query answers. */
export function setSignificanceTests(list: readonly TestFacts[]): void {
  if (list === tests) return;
  tests = list;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every registered test (empty before the query answers). */
export function significanceTests(): readonly TestFacts[] {
  return tests;
}

/** The registered tests, re-rendering when the registry arrives. */
export function useSignificanceTests(): readonly TestFacts[] {
  return useSyncExternalStore(subscribe, significanceTests, significanceTests);
}

/** The tests a view may choose (the `leaderboard(test:)` values), in table order. */
export function choosableTests(list: readonly TestFacts[] = tests): PairedTest[] {
  return list.flatMap((t) => (t.value ? [t.value] : []));
}

/** A test's label by registry key (`ttest`, `bootstrap_corpus`) or GraphQL value (`TTEST`); the key itself when unknown. */
export function testLabel(keyOrValue: string, list: readonly TestFacts[] = tests): string {
  return list.find((t) => t.key === keyOrValue || t.value === keyOrValue)?.label ?? keyOrValue;
}

/** One p-value correction as the API's `pValueCorrections` query describes it (libs/ranking/src/correction.ts). */
export type CorrectionFacts = PValueCorrectionsQuery['pValueCorrections'][number];

let corrections: readonly CorrectionFacts[] = [];

/** Replaces the corrections the selector and legends read; the app calls it once the query answers. */
export function setPValueCorrections(list: readonly CorrectionFacts[]): void {
  if (list === corrections) return;
  corrections = list;
  for (const l of listeners) l();
}

/** Every correction, the default first (empty before the query answers). */
export function pValueCorrections(): readonly CorrectionFacts[] {
  return corrections;
}

/** The corrections, re-rendering when the list arrives. */
export function usePValueCorrections(): readonly CorrectionFacts[] {
  return useSyncExternalStore(subscribe, pValueCorrections, pValueCorrections);
}

/** A correction's label by GraphQL value (`HOLM`); the value itself when unknown. */
export function correctionLabel(value: PValueCorrection, list: readonly CorrectionFacts[] = corrections): string {
  return list.find((c) => c.value === value)?.label ?? value;
}
