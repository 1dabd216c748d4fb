import { useMemo } from 'react';
import { LeaderboardDocument, PhaseDocument } from '../graphql/generated';
import { useQuery } from '../lib/graphql-client';
import { orderSystems, pairCells } from '../lib/leaderboard';
import { Link, navigate, useLocation } from '../lib/router';
import { serializeLeaderboardState } from '../lib/url-state';
import { useLeaderboardState } from '../lib/use-url-state';
import { CORRECTION_LABELS, LeaderboardControls, TEST_LABELS } from '../components/leaderboard-controls';
import { PairedView } from '../components/paired-view';
import { PairwiseHeatmap } from '../components/pairwise-heatmap';
import { Empty, ErrorMessage, Loading } from '../components/status';

export function PairwisePage({ phaseId }: { phaseId: string }) {
  const [state, setState] = useLeaderboardState();
  const { pathname, search } = useLocation();
  const q = new URLSearchParams(search);
  const aId = q.get('a');
  const bId = q.get('b');
  const phase = useQuery(PhaseDocument, { id: phaseId });
  const { data, error, loading, refetch } = useQuery(LeaderboardDocument, { phaseId, metric: state.metric, test: state.test, correction: state.correction });
  const board = data?.leaderboard ?? null;
  const order = useMemo(() => (board ? orderSystems(board.systems, state.aggregation === 'elo' || state.aggregation === 'trueskill' ? 'bt' : state.aggregation).map((s) => s.system) : []), [board, state.aggregation]);
  const cells = useMemo(() => (board ? pairCells(board.pairs) : []), [board]);

  function select(rowId: string, colId: string) {
    const next = new URLSearchParams(search);
    next.set('a', rowId);
    next.set('b', colId);
    navigate(`${pathname}?${next.toString()}`);
    requestAnimationFrame(() => document.getElementById('paired-heading')?.focus());
  }
  function close() {
    const next = new URLSearchParams(search);
    next.delete('a');
    next.delete('b');
    const s = next.toString();
    navigate(pathname + (s ? `?${s}` : ''));
  }
  const task = phase.data?.phase.task;
  return (
    <article>
      <p className="breadcrumbs small">
        {task ? (
          <Link to={`/tasks/${encodeURIComponent(task.slug)}${serializeLeaderboardState({ ...state, phase: phaseId })}`}>← {task.title}: leaderboard</Link>
        ) : (
          'Leaderboard'
        )}
      </p>
      <h1>Pairwise comparison{phase.data && `: ${phase.data.phase.name}`}</h1>
      <LeaderboardControls state={state} metrics={board?.availableMetrics ?? []} onChange={setState} showAggregation={false} />
      {loading && !board && <Loading what="pairwise results" />}
      {error && <ErrorMessage error={error} onRetry={refetch} title="Could not compare the systems" />}
      {board && board.systems.length < 2 && <Empty>At least two scored systems are needed for a comparison.</Empty>}
      {board && board.systems.length >= 2 && (
        <>
          <p className="small">
            Each cell is the Bradley–Terry probability that the row system beats the column system on an instance. * and a black outline mark pairs that differ
            significantly ({TEST_LABELS[board.test]}, {CORRECTION_LABELS[board.correction]} correction, α = 0.05). Select a cell to compare the two systems.
          </p>
          <PairwiseHeatmap cells={cells} order={order} onSelect={select} />
          <form className="controls" aria-label="Choose two systems" onSubmit={(e) => e.preventDefault()}>
            <label>
              System A
              <select value={aId ?? ''} onChange={(e) => e.target.value && select(e.target.value, bId && bId !== e.target.value ? bId : (board.systems.find((s) => s.submissionId !== e.target.value)?.submissionId ?? ''))}>
                <option value="">choose…</option>
                {board.systems.map((s) => (
                  <option key={s.submissionId} value={s.submissionId}>
                    {s.system}
                  </option>
                ))}
              </select>
            </label>
            <label>
              System B
              <select value={bId ?? ''} onChange={(e) => e.target.value && select(aId && aId !== e.target.value ? aId : (board.systems.find((s) => s.submissionId !== e.target.value)?.submissionId ?? ''), e.target.value)}>
                <option value="">choose…</option>
                {board.systems.map((s) => (
                  <option key={s.submissionId} value={s.submissionId}>
                    {s.system}
                  </option>
                ))}
              </select>
            </label>
          </form>
          {aId && bId && aId !== bId && <PairedView board={board} aId={aId} bId={bId} onClose={close} />}
        </>
      )}
    </article>
  );
}
