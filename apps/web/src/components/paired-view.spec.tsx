import { render, screen, waitFor, within } from '@testing-library/react';
import { resetGraphqlClient } from '../lib/graphql-client';
import type { LeaderboardData } from '../lib/leaderboard';
import { setSignificanceTests } from '../lib/test-registry';
import { METHODS, SIGNIFICANCE_TESTS, pair, row } from '../test/fixtures';
import { jsonResponse } from '../test/json-response';
import { PairedView } from './paired-view';

jest.mock('./plot-figure', () => ({ PlotFigure: () => null }));

const board = (pairs: LeaderboardData['pairs']): LeaderboardData =>
  ({
    phaseId: 'p1', metric: 'bleu', higherIsBetter: true, test: 'TTEST', correction: 'HOLM', systems: [row('A', { mean: 1 }), row('B', { mean: 2 })], pairs, methods: METHODS,
  }) as unknown as LeaderboardData;

beforeEach(() => {
  resetGraphqlClient();
  // instance scores: none (the table of tests does not wait for them)
  (globalThis as { fetch: unknown }).fetch = jest.fn(async () => jsonResponse({ data: { instanceScores: { total: 0, offset: 0, limit: 1000, rows: [] } } }));
  setSignificanceTests(SIGNIFICANCE_TESTS);
});

describe('PairedView', () => {
  it("lists the pair's test results in the registry's order with the registry's labels, a test the web never heard of included", async () => {
    setSignificanceTests([...SIGNIFICANCE_TESTS, { key: 'future', value: null, label: 'a test added to libs/ranking only', corpus: false, statistic: false }]);
    const p = pair('A', 'B', { testResults: [{ test: 'ttest', p: 0.01 }, { test: 'sign', p: 0.03 }, { test: 'future', p: 0.5 }] });
    render(<PairedView board={board([p])} aId="id-A" bId="id-B" onClose={() => undefined} />);
    const rows = within(screen.getByTestId('paired-tests')).getAllByRole('row').slice(1).map((r) => r.querySelector('th')?.textContent);
    expect(rows).toEqual(['paired t-test', 'sign test (exact binomial, ties dropped)', 'a test added to libs/ranking only']);
    expect(screen.getByTestId('paired-tests').querySelector('tr.sorted th')?.textContent).toBe('paired t-test');
    await waitFor(() => expect(screen.queryByText(/Loading per-instance scores/i)).toBeNull());
  });
});
