import { act, render, screen, waitFor } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { DEFAULT_STATE } from '../lib/url-state';
import { METHODS, METRIC_FACTS, SIGNIFICANCE_TESTS, pair, row } from '../test/fixtures';
import { setMetricFacts } from '../lib/metric-registry';
import { setSignificanceTests } from '../lib/test-registry';
import { LeaderboardView } from './leaderboard-view';
import { jsonResponse } from '../test/json-response';
import { resetGraphqlClient } from '../lib/graphql-client';

function board(systems: ReturnType<typeof row>[], notes: string[] = []) {
  return {
    updating: false, stamp: 's1', computedAt: '2026-01-01T00:00:00.000Z', phaseId: 'p1', metric: 'bleu', higherIsBetter: true, metricSignature: 'bleu|sig', availableMetrics: ['bleu', 'chrf'], test: 'TTEST', correction: 'HOLM',
    seed: 12345, resamples: 1000, instanceCount: 100, disagreement: null, notes, systems, pairs: [pair('A', 'B')],
    resamplesChosen: true, smallestReachableP: 0.001, alpha: 0.05, significanceWarnings: [] as string[], mainAggregation: 'mean', corpusSignature: 'bleu|corpus',
    clusterDefinition: 'Clusters (WMT style): rule.', clusterTests: [{ aggregation: 'mean', test: 'ttest', label: 'paired t-test' }], btFiniteMle: true, btNote: null,
    methods: METHODS.filter((m) => m.key !== 'corpus'),
  };
}

/** The board request (leaderboard.json) gets `body` with `status`; GraphQL gets no one signed in and no row links. */
function answer(body: unknown, status = 200) {
  const fetchMock = jest.fn(async (url: string) => (url.includes('/leaderboard.json') ? jsonResponse(body, status) : jsonResponse({ data: { me: null, leaderboard: { systems: [] } } })));
  (globalThis as { fetch: unknown }).fetch = fetchMock;
  return fetchMock;
}

const view = (state = DEFAULT_STATE) =>
  render(
    <AuthProvider>
      <LeaderboardView phaseId="p1" metrics={['bleu']} state={state} onChange={() => undefined} />
    </AuthProvider>,
  );

beforeAll(() => {
  setMetricFacts(METRIC_FACTS);
  setSignificanceTests(SIGNIFICANCE_TESTS);
});

beforeEach(() => resetGraphqlClient());

describe('LeaderboardView', () => {
  it('shows a loading state, then the systems and the metrics the API offers', async () => {
    answer(board([row('A', { mean: 1 }), row('B', { mean: 2 })]));
    view();
    expect(screen.getByRole('status').textContent).toContain('Loading the leaderboard');
    expect(await screen.findAllByTestId('leaderboard-row')).toHaveLength(2);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(expect.arrayContaining(['BLEU', 'chrF']));
    expect(screen.queryByTestId('disagreement-note')).toBeNull();
  });

  it('warns when aggregations put different systems first', async () => {
    answer(board([row('A', { mean: 1, bt: 2 }), row('B', { mean: 2, bt: 1 })]));
    view();
    expect((await screen.findByTestId('disagreement-note')).textContent).toContain('Bradley–Terry ranks B first');
  });

  it('names the test behind each aggregation, the cluster rule, and warns when significance is unreachable', async () => {
    const b = {
      ...board([row('A', { mean: 1, corpus: 1 }), row('B', { mean: 2, corpus: 2 })]),
      mainAggregation: 'corpus',
      methods: METHODS,
      clusterTests: [
        { aggregation: 'corpus', test: 'bootstrap_corpus', label: 'paired bootstrap resampling of the corpus score (sacreBLEU paired-bs)' },
        { aggregation: 'mean', test: 'ttest', label: 'paired t-test' },
      ],
      significanceWarnings: ['With 1000 resamples the bootstrap and randomisation tests cannot reach significance after Holm correction over 55 pairs'],
    };
    answer(b);
    view();
    expect((await screen.findByTestId('board-tests')).textContent).toMatch(/Corpus score — paired bootstrap resampling of the corpus score \(sacreBLEU paired-bs\); Mean — paired t-test/);
    expect(screen.getByTestId('cluster-definition').textContent).toContain('WMT style');
    expect(screen.getByTestId('significance-warning').textContent).toContain('cannot reach significance');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toContain('Default: paired-bs for corpus, t-test for mean, Mood for median, sign test for BT');
    expect(screen.getAllByTestId('leaderboard-row').map((r) => r.getAttribute('data-value'))).toEqual(['29', '28']); // corpus column is the main order
  });

  it('explains an empty leaderboard with the API’s notes', async () => {
    answer(board([], ['only one system is scored']));
    view();
    expect((await screen.findByText(/No ranked systems/)).textContent).toContain('only one system is scored');
  });

  it('reads the board from leaderboard.json with the table’s metric, test and correction', async () => {
    const fetchMock = answer(board([row('A', { mean: 1 }), row('B', { mean: 2 })]));
    view();
    await screen.findAllByTestId('leaderboard-row');
    // the default state names no correction: the API applies its own default (the first of pValueCorrections)
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/phases/p1/leaderboard.json');
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/graphql?operationName=Leaderboard');
  });

  it('names a chosen correction in the request', async () => {
    const fetchMock = answer(board([row('A', { mean: 1 }), row('B', { mean: 2 })]));
    view({ ...DEFAULT_STATE, correction: 'BH' });
    await screen.findAllByTestId('leaderboard-row');
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/phases/p1/leaderboard.json?correction=bh');
  });

  it('shows the API’s error with a retry button', async () => {
    answer({ error: 'phase p1 not found', code: 'NOT_FOUND' }, 404);
    view();
    expect((await screen.findByRole('alert')).textContent).toContain('phase p1 not found');
  });

  it('says the board is updating and asks again until it is current', async () => {
    jest.useFakeTimers();
    try {
      const fetchMock = answer({ ...board([row('A', { mean: 1 }), row('B', { mean: 2 })]), updating: true });
      view();
      expect((await screen.findByTestId('leaderboard-updating')).textContent).toContain('updating…');
      const boardRequests = () => fetchMock.mock.calls.filter(([url]) => url.includes('/leaderboard.json')).length;
      const before = boardRequests();
      fetchMock.mockImplementation(async (url: string) => (url.includes('/leaderboard.json') ? jsonResponse(board([row('A', { mean: 1 }), row('B', { mean: 2 })])) : jsonResponse({ data: { me: null, leaderboard: { systems: [] } } })));
      await act(async () => {
        await jest.advanceTimersByTimeAsync(2100);
      });
      expect(boardRequests()).toBeGreaterThan(before);
      await waitFor(() => expect(screen.queryByTestId('leaderboard-updating')).toBeNull());
    } finally {
      jest.useRealTimers();
    }
  });
});
