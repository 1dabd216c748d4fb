import { fireEvent, render, screen } from '@testing-library/react';
import { DEFAULT_STATE } from '../lib/url-state';
import { LeaderboardControls, metricLabel } from './leaderboard-controls';
import { setMetricFacts } from '../lib/metric-registry';
import { setPValueCorrections, setSignificanceTests } from '../lib/test-registry';
import type { PValueCorrection, PairedTest } from '../graphql/generated';
import { METHODS, METRIC_FACTS, P_VALUE_CORRECTIONS, SIGNIFICANCE_TESTS } from '../test/fixtures';

beforeAll(() => setMetricFacts(METRIC_FACTS));
beforeEach(() => {
  setSignificanceTests(SIGNIFICANCE_TESTS);
  setPValueCorrections(P_VALUE_CORRECTIONS);
});

describe('LeaderboardControls', () => {
  it('reports a new state when the aggregation, test, correction or metric changes', () => {
    const onChange = jest.fn();
    render(<LeaderboardControls state={DEFAULT_STATE} metrics={['bleu', 'chrf', 'nli', 'combined:nli+bleu']} onChange={onChange} methods={METHODS} />);
    fireEvent.change(screen.getByLabelText('Rank by'), { target: { value: 'bt' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_STATE, aggregation: 'bt' });
    fireEvent.change(screen.getByLabelText('Significance test'), { target: { value: 'WILCOXON' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_STATE, test: 'WILCOXON' });
    fireEvent.change(screen.getByLabelText('Significance test'), { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_STATE, test: null });
    fireEvent.change(screen.getByLabelText('Correction'), { target: { value: 'BH' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_STATE, correction: 'BH' });
    fireEvent.change(screen.getByLabelText('Metric'), { target: { value: 'nli' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_STATE, metric: 'nli' });
  });

  it('offers the corrections the API lists, with their labels, one added to libs/ranking included', () => {
    setPValueCorrections([...P_VALUE_CORRECTIONS, { key: 'bonferroni', value: 'BONFERRONI' as PValueCorrection, label: 'a correction added to libs/ranking only' }]);
    render(<LeaderboardControls state={DEFAULT_STATE} metrics={['bleu']} onChange={() => undefined} />);
    const options = Array.from(screen.getByLabelText<HTMLSelectElement>('Correction').options).map((o) => [o.value, o.textContent]);
    expect(options).toEqual([
      ['HOLM', 'Holm (family-wise)'],
      ['BH', 'Benjamini–Hochberg (FDR)'],
      ['NONE', 'None'],
      ['BONFERRONI', 'a correction added to libs/ranking only'],
    ]);
  });

  it("offers the API registry's choosable tests with its labels, a newly registered one included, and no corpus-only test", () => {
    setSignificanceTests([...SIGNIFICANCE_TESTS, { key: 'future', value: 'FUTURE' as PairedTest, label: 'a test added to libs/ranking only', corpus: false, statistic: false }]);
    render(<LeaderboardControls state={DEFAULT_STATE} metrics={['bleu']} onChange={() => undefined} />);
    const options = Array.from(screen.getByLabelText<HTMLSelectElement>('Significance test').options).map((o) => [o.value, o.textContent]);
    expect(options.slice(1)).toEqual([
      ['TTEST', 'paired t-test'],
      ['WILCOXON', 'Wilcoxon signed-rank test (exact for n ≤ 50)'],
      ['SIGN', 'sign test (exact binomial, ties dropped)'],
      ['MOOD', "Mood's median test"],
      ['BOOTSTRAP', 'paired bootstrap of the mean'],
      ['AR', 'paired approximate randomisation of the mean'],
      ['FUTURE', 'a test added to libs/ranking only'],
    ]);
  });

  it('offers the NLI and combined metrics when the API lists them', () => {
    render(<LeaderboardControls state={DEFAULT_STATE} metrics={['bleu', 'nli', 'combined:nli+bleu']} onChange={() => undefined} />);
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(expect.arrayContaining(['BLEU', 'NLI (MENLI)', 'Combined: NLI (MENLI) + BLEU']));
  });

  it('shows the first metric as selected when the URL names none', () => {
    render(<LeaderboardControls state={DEFAULT_STATE} metrics={['chrf', 'bleu']} onChange={() => undefined} />);
    expect(screen.getByLabelText<HTMLSelectElement>('Metric').value).toBe('chrf');
  });

  it('hides the aggregation selector where it does not apply', () => {
    render(<LeaderboardControls state={DEFAULT_STATE} metrics={['bleu']} onChange={() => undefined} showAggregation={false} />);
    expect(screen.queryByLabelText('Rank by')).toBeNull();
  });
});

describe('metricLabel', () => {
  it('names known metrics and says TER is lower-is-better', () => {
    expect(metricLabel('chrf++')).toBe('chrF++');
    expect(metricLabel('ter')).toBe('TER (lower is better)');
    expect(metricLabel('custom')).toBe('custom');
    expect(metricLabel('combined:nli+ter')).toBe('Combined: NLI (MENLI) + TER');
  });
});
