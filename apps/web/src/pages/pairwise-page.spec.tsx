import { fireEvent, render, screen, within } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { resetGraphqlClient } from '../lib/graphql-client';
import { jsonResponse } from '../test/json-response';
import { PairwisePage } from './pairwise-page';
import { METHODS, pair, row } from '../test/fixtures';

// What the API answers a participant for a hidden board (apps/api/src/common/visibility.ts's words).
const HIDDEN = "the leaderboard of phase 'test' is hidden until the organisers publish the results; only organisers see them before";

beforeEach(() => {
  resetGraphqlClient();
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init?: { body?: string }) => {
    if (url.includes('/leaderboard.json')) return jsonResponse({ error: HIDDEN, code: 'FORBIDDEN' }, 403);
    if ((init?.body ?? '').includes('query Me')) return jsonResponse({ data: { me: { id: 'u1', name: 'ada', role: 'PARTICIPANT', organisedTaskIds: [], teams: [] } } });
    return jsonResponse({ data: { phase: { id: 'p1', name: 'test', task: { id: 't1', slug: 'wmt', title: 'WMT', metrics: [] } } } });
  });
});

describe('PairwisePage', () => {
  it('says why a hidden board cannot be compared and what to do instead, with no retry and no empty metric choice', async () => {
    render(
      <AuthProvider>
        <PairwisePage phaseId="p1" />
      </AuthProvider>,
    );
    const note = await screen.findByTestId('forbidden');
    expect(note.textContent).toContain("The leaderboard of phase 'test' is hidden until the organisers publish the results");
    expect(note.textContent).toContain('Team page');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /metric/i })).toBeNull();
  });
});

describe('PairwisePage on a large board (issue #28)', () => {
  it('shows the matrix 30 × 30 systems at a time, with the blocks of rows and columns to choose', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `sys${String(i).padStart(3, '0')}`);
    const board = {
      updating: false, stamp: 's1', computedAt: '2026-01-01T00:00:00.000Z', phaseId: 'p1', metric: 'bleu', higherIsBetter: true, metricSignature: 'bleu|sig', availableMetrics: ['bleu'], test: 'TTEST', correction: 'HOLM',
      seed: 12345, resamples: 200, instanceCount: 100, disagreement: null, notes: [], systems: names.map((n, i) => row(n, { mean: i + 1 })),
      pairs: names.flatMap((a, i) => names.slice(i + 1).map((b) => pair(a, b))),
      resamplesChosen: true, smallestReachableP: 0.001, alpha: 0.05, significanceWarnings: [] as string[], mainAggregation: 'mean', corpusSignature: 'bleu|corpus',
      clusterDefinition: 'Clusters (WMT style): rule.', clusterTests: [{ aggregation: 'mean', test: 'ttest', label: 'paired t-test' }], btFiniteMle: true, btNote: null,
      methods: METHODS.filter((m) => m.key !== 'corpus'),
    };
    (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init?: { body?: string }) => {
      if (url.includes('/leaderboard.json')) return jsonResponse(board);
      if ((init?.body ?? '').includes('query Me')) return jsonResponse({ data: { me: null } });
      return jsonResponse({ data: { phase: { id: 'p1', name: 'test', task: { id: 't1', slug: 'wmt', title: 'WMT', metrics: [] } } } });
    });
    render(
      <AuthProvider>
        <PairwisePage phaseId="p1" />
      </AuthProvider>,
    );
    expect((await screen.findByTestId('pairwise-blocks')).textContent).toContain('100 systems: the matrix is shown 30 rows × 30 columns at a time');
    const part = screen.getByRole('form', { name: 'Part of the matrix' });
    const rowsSelect = within(part).getByRole('combobox', { name: 'Rows' });
    const colsSelect = within(part).getByRole('combobox', { name: 'Columns' });
    expect(within(rowsSelect).getAllByRole('option').map((o) => o.textContent)).toEqual(['systems 1–30 of 100', 'systems 31–60 of 100', 'systems 61–90 of 100', 'systems 91–100 of 100']);
    fireEvent.change(colsSelect, { target: { value: '3' } });
    expect((colsSelect as HTMLSelectElement).value).toBe('3');
    expect(screen.getByTestId('pairwise-heatmap')).toBeTruthy();
  });
});
