import type { MethodInfo } from '../lib/leaderboard';
import type { LeaderboardState } from '../lib/url-state';
import type { PValueCorrection, PairedTest } from '../graphql/generated';
import { metricFacts } from '../lib/metric-registry';
import { usePValueCorrections, useSignificanceTests } from '../lib/test-registry';


/** What "Default (per aggregation)" means, test by test. */
export const DEFAULT_TESTS_LABEL = 'Default: paired-bs for corpus, t-test for mean, Mood for median, sign test for BT';


/** Labels for metric keys from the API's metric registry; the combined metric gets a word of explanation. */
export function metricLabel(key: string): string {
  const facts = metricFacts(key);
  if (facts) return facts.higherIsBetter ? facts.displayName : `${facts.displayName} (lower is better)`;
  // The API's combined metric (MENLI): `combined`, or `combined:<nli key>+<other key>`.
  const [, nliKey, otherKey] = /^combined:([^+]+)\+(.+)$/.exec(key) ?? [];
  if (nliKey !== undefined && otherKey !== undefined) return `Combined: ${metricLabel(nliKey).replace(' (lower is better)', '')} + ${metricLabel(otherKey).replace(' (lower is better)', '')}`;
  if (key === 'combined') return 'Combined: NLI + primary metric';
  if (key.startsWith('nli')) return `NLI (${key})`;
  return key;
}

interface Props {
  state: LeaderboardState;
  metrics: readonly string[];
  onChange: (next: LeaderboardState) => void;
  /** The aggregation selector is not needed on the pairwise page. */
  showAggregation?: boolean;
  /** The board's ranking methods (before a board is loaded: none, and the current choice is offered alone). */
  methods?: readonly Pick<MethodInfo, 'key' | 'label'>[];
  /** The board's main ranking (its `mainAggregation`): what "no method chosen" shows. */
  mainAggregation?: string;
}

/** The selector's entry before a board names its main ranking. */
const MAIN_RANKING_LABEL = 'Main ranking';

/** Metric, aggregation, test and correction selectors; every change goes into the URL. */
export function LeaderboardControls({ state, metrics, onChange, showAggregation = true, methods = [], mainAggregation }: Props) {
  const metric = state.metric ?? metrics[0] ?? '';
  const shown = state.aggregation ?? mainAggregation ?? '';
  const tests = useSignificanceTests();
  const corrections = usePValueCorrections();
  const shownCorrection = state.correction ?? corrections[0]?.value ?? '';
  return (
    <form className="controls" onSubmit={(e) => e.preventDefault()} aria-label="Leaderboard settings">
      <label>
        Metric
        <select value={metric} onChange={(e) => onChange({ ...state, metric: e.target.value })} disabled={metrics.length === 0} data-testid="metric-select">
          {metrics.map((m) => (
            <option key={m} value={m}>
              {metricLabel(m)}
            </option>
          ))}
        </select>
      </label>
      {showAggregation && (
        <label>
          Rank by
          <select value={shown} onChange={(e) => onChange({ ...state, aggregation: e.target.value })} data-testid="aggregation-select">
            {(methods.some((m) => m.key === shown) ? methods : [...methods, { key: shown, label: shown === '' ? MAIN_RANKING_LABEL : shown }]).map((m) => (
              <option key={m.key} value={m.key}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Significance test
        <select value={state.test ?? ''} onChange={(e) => onChange({ ...state, test: e.target.value === '' ? null : (e.target.value as PairedTest) })} data-testid="test-select">
          <option value="">{DEFAULT_TESTS_LABEL}</option>
          {tests.flatMap((t) =>
            t.value ? [
              <option key={t.key} value={t.value}>
                {t.label}
              </option>,
            ] : [],
          )}
        </select>
      </label>
      <label>
        Correction
        <select
          value={shownCorrection}
          // the API's default (the first correction) is left out of the state, as the default test is
          onChange={(e) => onChange({ ...state, correction: e.target.value === corrections[0]?.value ? null : (e.target.value as PValueCorrection) })}
          data-testid="correction-select"
        >
          {(corrections.some((c) => c.value === shownCorrection) ? corrections : [...corrections, { key: shownCorrection, value: shownCorrection, label: shownCorrection }]).map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
