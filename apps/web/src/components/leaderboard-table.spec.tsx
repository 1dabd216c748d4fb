import { fireEvent, render, screen, within } from '@testing-library/react';
import { METHODS, pair, row } from '../test/fixtures';
import { LeaderboardTable } from './leaderboard-table';
import { defined } from '../../../../test/support/defined';

const rows = [
  row('A', { mean: 1, bt: 2 }, { cluster: { mean: 1, median: 1, bt: 1 } }),
  row('B', { mean: 2, bt: 1 }, { cluster: { mean: 1, median: 1, bt: 1 }, isBaseline: true }),
  row('C', { mean: 3, bt: 3 }, { cluster: { mean: 2, median: 1, bt: 2 } }),
];

const shownSystems = () => screen.getAllByTestId('leaderboard-row').map((tr) => tr.getAttribute('data-system'));

describe('LeaderboardTable', () => {
  it('lists systems in the order of the chosen aggregation, with that aggregation’s rank', () => {
    const { rerender } = render(<LeaderboardTable rows={rows} methods={METHODS} aggregation="mean" higherIsBetter />);
    expect(shownSystems()).toEqual(['A', 'B', 'C']);
    rerender(<LeaderboardTable rows={rows} methods={METHODS} aggregation="bt" higherIsBetter />);
    expect(shownSystems()).toEqual(['B', 'A', 'C']);
    const first = defined(screen.getAllByTestId('leaderboard-row')[0]);
    expect(defined(within(first).getAllByRole('cell')[0]).textContent).toBe('1');
  });

  it('starts a new band where the cluster changes and shows the cluster number', () => {
    render(<LeaderboardTable rows={rows} methods={METHODS} aggregation="mean" higherIsBetter />);
    const trs = screen.getAllByTestId('leaderboard-row');
    expect(trs.map((tr) => tr.classList.contains('band-start'))).toEqual([false, false, true]);
    expect(trs.map((tr) => tr.querySelector('.cluster-tag')?.textContent)).toEqual(['1', '1', '2']);
  });

  it('marks baselines in words, not only by style', () => {
    render(<LeaderboardTable rows={rows} methods={METHODS} aggregation="mean" higherIsBetter />);
    const b = defined(screen.getAllByTestId('leaderboard-row').find((tr) => tr.getAttribute('data-system') === 'B'));
    expect(within(b).getByText('baseline')).toBeTruthy();
  });

  it('adds an Elo column when ranking by Elo, where clusters do not apply', () => {
    render(<LeaderboardTable rows={rows} methods={METHODS} aggregation="elo" higherIsBetter />);
    expect(screen.getByRole('columnheader', { name: 'Elo' })).toBeTruthy();
    expect(screen.queryAllByText('2', { selector: '.cluster-tag' })).toHaveLength(0);
  });

  it('marks a pair that is significant inside one cluster (WMT-style clusters allow it) and states the rule', () => {
    const pairs = [pair('A', 'B', { significant: { mean: true, median: false, bt: false, corpus: null } }), pair('A', 'C', { significant: { mean: true, median: false, bt: false, corpus: null } })];
    render(<LeaderboardTable rows={rows} methods={METHODS} aggregation="mean" higherIsBetter pairs={pairs} clusterDefinition="Clusters (WMT style): rule" />);
    const marked = screen.getAllByTestId('within-cluster').map((el) => defined(el.closest('tr')).getAttribute('data-system'));
    expect(marked).toEqual(['A', 'B']); // A–B share cluster 1; A–C are in different clusters (expected to differ)
    expect(screen.getByTestId('cluster-definition').textContent).toBe('Clusters (WMT style): rule');
  });

  it('shows Elo’s own rank interval, named as the game-order spread, not Bradley–Terry’s', () => {
    render(<LeaderboardTable rows={rows} methods={METHODS} aggregation="elo" higherIsBetter />);
    expect(screen.getByRole('columnheader', { name: /Rank interval \(game order\)/ })).toBeTruthy();
    const a = defined(screen.getAllByTestId('leaderboard-row').find((tr) => tr.getAttribute('data-system') === 'A'));
    expect(within(a).getAllByRole('cell').map((c) => c.textContent)).toContain('1–3'); // fixture: elo interval [1, 3]
  });

  it('shows a method it has never heard of (a column, its order, its rank interval) from the board’s descriptor alone', () => {
    const mwr = { key: 'mean_win_rate', label: 'Mean win rate', description: 'HELM mean win rate', intervalKind: 'bootstrap', direction: 'higher is better', clusters: false, test: null, testLabel: null };
    const win = (r: (typeof rows)[number], value: number, rank: number) => ({
      ...r,
      values: [...r.values, { method: 'mean_win_rate', value, interval: { low: value - 0.1, high: value + 0.1 }, rank, rankInterval: { best: rank, worst: rank + 1 }, cluster: null }],
    });
    const withWinRate = [win(defined(rows[0]), 0.25, 3), win(defined(rows[1]), 0.5, 2), win(defined(rows[2]), 0.75, 1)];
    render(<LeaderboardTable rows={withWinRate} methods={[...METHODS, mwr]} aggregation="mean_win_rate" higherIsBetter />);
    expect(screen.getByRole('columnheader', { name: /Mean win rate/ })).toBeTruthy();
    expect(shownSystems()).toEqual(['C', 'B', 'A']);
    const c = defined(screen.getAllByTestId('leaderboard-row')[0]);
    expect(within(c).getAllByRole('cell').map((x) => x.textContent)).toEqual(expect.arrayContaining(['0.750 [0.650, 0.850]', '1–2']));
    expect(screen.getByTestId('cluster-definition').textContent).toContain('Mean win rate has no significance clusters');
  });

  it('links each system to its submission page', () => {
    render(<LeaderboardTable rows={rows} methods={METHODS} aggregation="mean" higherIsBetter />);
    expect(screen.getByRole('link', { name: 'C' }).getAttribute('href')).toBe('/submissions/id-C');
  });

  it("shows a row's paper and code links, http(s) only, opened without opener or referrer", () => {
    const [a, b, c] = rows.map((r) => r.submissionId);
    const links = new Map([
      [defined(a), { paperUrl: 'https://example.org/paper-a', codeUrl: null }],
      [defined(b), { paperUrl: 'javascript:alert(1)', codeUrl: 'http://example.org/code-b' }],
      [defined(c), { paperUrl: null, codeUrl: null }],
    ]);
    render(<LeaderboardTable rows={rows} methods={METHODS} aggregation="mean" higherIsBetter links={links} />);
    const linksOf = (system: string) =>
      within(defined(screen.getAllByTestId('leaderboard-row').find((tr) => tr.getAttribute('data-system') === system)))
        .queryAllByRole('link')
        .filter((l) => !l.getAttribute('href')?.startsWith('/submissions/'))
        .map((l) => [l.textContent, l.getAttribute('href'), l.getAttribute('rel')]);
    expect(linksOf('A')).toEqual([['paper', 'https://example.org/paper-a', 'noopener noreferrer nofollow']]);
    expect(linksOf('B')).toEqual([['code', 'http://example.org/code-b', 'noopener noreferrer nofollow']]);
    expect(linksOf('C')).toEqual([]);
  });
});

describe('LeaderboardTable on an arena-sized board (issue #28)', () => {
  it('shows 100 rows at a time in rank order, with ranks and bands of the whole board, and pages forward and back', () => {
    // 1,000 systems in clusters of 7; each system's pairs with its next seven, all significant by the mean (the fixtures' pair)
    const names = Array.from({ length: 1000 }, (_, i) => `s${String(i).padStart(4, '0')}`);
    const many = names.map((n, i) => row(n, { mean: i + 1 }, { cluster: { mean: Math.floor(i / 7) + 1, median: 1, bt: 1 } }));
    const pairs = names.flatMap((a, i) => names.slice(i + 1, Math.min(names.length, i + 8)).map((b) => pair(a, b)));
    render(<LeaderboardTable rows={[...many].reverse()} methods={METHODS} aggregation="mean" higherIsBetter pairs={pairs} />);
    expect(shownSystems()).toEqual(names.slice(0, 100));
    expect(screen.getByTestId('leaderboard-pages').textContent).toContain('Systems 1–100 of 1000');
    expect(screen.getByRole('button', { name: /Previous/ })).toHaveProperty('disabled', true);
    // s0000 … s0006 form cluster 1: s0000 differs significantly from the six others within it
    const top = defined(screen.getAllByTestId('leaderboard-row')[0]);
    expect(within(top).getByTestId('within-cluster').getAttribute('title')).toBe('Significantly different from s0001, s0002, s0003, s0004, s0005, s0006 within the same cluster');
    for (let p = 0; p < 9; p++) fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(shownSystems()).toEqual(names.slice(900, 1000));
    const last = defined(screen.getAllByTestId('leaderboard-row').at(-1));
    expect(defined(within(last).getAllByRole('cell')[0]).textContent).toBe('1000');
    expect(screen.getByRole('button', { name: /Next/ })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: /Previous/ }));
    expect(shownSystems()).toEqual(names.slice(800, 900));
  });
});
