import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AuthProvider } from '../lib/auth';
import { resetGraphqlClient } from '../lib/graphql-client';
import { jsonResponse } from '../test/json-response';
import { PairwisePage } from './pairwise-page';
import { METHODS, pair, row } from '../test/fixtures';

// Observable Plot is stubbed under Jest (no SVG): the heatmap's cells are listed by their labels instead.
jest.mock('../components/pairwise-heatmap', () => {
  const actual = jest.requireActual<typeof import('../components/pairwise-heatmap')>('../components/pairwise-heatmap');
  return {
    ...actual,
    PairwiseHeatmap: ({ cells }: { cells: Parameters<typeof actual.cellLabel>[0][] }) => (
      <div data-testid="pairwise-heatmap">
        {cells.map((c) => (
          <span key={`${c.rowId}|${c.colId}`} data-row-id={c.rowId} data-col-id={c.colId} aria-label={actual.cellLabel(c)} />
        ))}
      </div>
    ),
  };
});

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

describe('PairwisePage on a board whose pairs are stored apart (issue #28 item 5)', () => {
  it('fetches only the tiles of the block it shows: 1 tile for systems 1–30 × 1–30, 2 more for 1–30 × 61–70', async () => {
    const names = Array.from({ length: 70 }, (_, i) => `sys${String(i).padStart(3, '0')}`);
    const board = {
      updating: false, stamp: 's1', computedAt: '2026-01-01T00:00:00.000Z', phaseId: 'p1', metric: 'bleu', higherIsBetter: true, metricSignature: 'bleu|sig', availableMetrics: ['bleu'], test: 'TTEST', correction: 'HOLM',
      seed: 12345, resamples: 200, instanceCount: 100, disagreement: null, notes: [], systems: names.map((n, i) => row(n, { mean: i + 1 })),
      // the document of a board above PODIUM_LEADERBOARD_PAIRS_APART_ABOVE: no pairs, and where they are
      pairsApart: { count: (70 * 69) / 2, tile: 32, tiles: 3 },
      pairs: [],
      resamplesChosen: true, smallestReachableP: 0.001, alpha: 0.05, significanceWarnings: [] as string[], mainAggregation: 'mean', corpusSignature: 'bleu|corpus',
      clusterDefinition: 'Clusters (WMT style): rule.', clusterTests: [{ aggregation: 'mean', test: 'ttest', label: 'paired t-test' }], btFiniteMle: true, btNote: null,
      methods: METHODS.filter((m) => m.key !== 'corpus'),
    };
    /** Tile (r, c) as the API stores it: the pairs of positions r·32… against c·32… (pair-tiles.ts). */
    const tile = (r: number, c: number) =>
      names.flatMap((a, i) => names.slice(i + 1).map((b, d) => ({ a, b, i, j: i + 1 + d }))).filter(({ i, j }) => Math.floor(i / 32) === r && Math.floor(j / 32) === c).map(({ a, b }) => pair(a, b));
    const tiles: string[] = [];
    (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string, init?: { body?: string }) => {
      if (url.includes('/leaderboard-pairs.json')) {
        const q = new URLSearchParams(url.slice(url.indexOf('?') + 1));
        tiles.push(`${q.get('row')}:${q.get('col')}`);
        return jsonResponse({ row: Number(q.get('row')), col: Number(q.get('col')), pairs: tile(Number(q.get('row')), Number(q.get('col'))) });
      }
      if (url.includes('/leaderboard.json')) return jsonResponse(board);
      if ((init?.body ?? '').includes('query Me')) return jsonResponse({ data: { me: null } });
      return jsonResponse({ data: { phase: { id: 'p1', name: 'test', task: { id: 't1', slug: 'wmt', title: 'WMT', metrics: [] } } } });
    });
    render(
      <AuthProvider>
        <PairwisePage phaseId="p1" />
      </AuthProvider>,
    );
    await screen.findByTestId('pairwise-blocks');
    // the diagonal block: 30 × 29 cells, all in tile (0, 0)
    await waitFor(() => expect(document.querySelectorAll('[data-row-id]')).toHaveLength(30 * 29));
    expect(tiles).toEqual(['0:0']);
    const part = screen.getByRole('form', { name: 'Part of the matrix' });
    fireEvent.change(within(part).getByRole('combobox', { name: 'Columns' }), { target: { value: '2' } });
    // columns 61–70 are positions 60–69: tiles 1 (32–63) and 2 (64–95)
    await waitFor(() => expect(document.querySelectorAll('[data-row-id]')).toHaveLength(30 * 10));
    expect(tiles.sort()).toEqual(['0:0', '0:1', '0:2']);
    const cell = document.querySelector('[data-row-id="id-sys000"][data-col-id="id-sys069"]');
    expect(cell?.getAttribute('aria-label')).toContain('sys000 beats sys069');
  }, 20_000);
});
