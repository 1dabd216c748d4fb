import { useMemo, useState } from 'react';
import { PhaseDocument } from '../graphql/generated';
import { useQuery } from '../lib/graphql-client';
import { useLeaderboard } from '../lib/use-leaderboard';
import { usePairsBetween } from '../lib/use-pair-tiles';
import { blockCells, clusterIn, effectiveAggregation, heatmapBlocks, HEATMAP_BLOCK, methodInfo, methodLabel, orderSystems, type Aggregation } from '../lib/leaderboard';
import { Link, useLocation, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { serializeLeaderboardState } from '../lib/url-state';
import { useLeaderboardState } from '../lib/use-url-state';
import { LeaderboardControls } from '../components/leaderboard-controls';
import { correctionLabel, testLabel, usePValueCorrections, useSignificanceTests } from '../lib/test-registry';
import { PairedView } from '../components/paired-view';
import { PairwiseHeatmap } from '../components/pairwise-heatmap';
import { Empty, ErrorMessage, Forbidden, Loading } from '../components/status';
import { ApiError } from '../lib/graphql-client';

export function PairwisePage({ phaseId }: { phaseId: string }) {
  const [state, setState] = useLeaderboardState();
  const tests = useSignificanceTests();
  const corrections = usePValueCorrections();
  const [pathname] = useLocation();
  const search = useSearch();
  const q = new URLSearchParams(search);
  const aId = q.get('a');
  const bId = q.get('b');
  const phase = useQuery(PhaseDocument, { id: phaseId });
  const args = { metric: state.metric, test: state.test, correction: state.correction };
  const { data: board, error, loading, refetch } = useLeaderboard(phaseId, args);
  // Stars follow the cluster test of the method shown (one without clusters: the board's main ranking).
  const aggregation: Aggregation = useMemo(() => {
    const a = effectiveAggregation(state.aggregation, board);
    return board && !methodInfo(board.methods, a)?.clusters ? board.mainAggregation : a;
  }, [state.aggregation, board]);
  const ordered = useMemo(() => (board ? orderSystems(board.systems, aggregation) : []), [board, aggregation]);
  // Beyond HEATMAP_BLOCK systems the matrix is shown one block of rows × one block of columns at a time.
  const blocks = useMemo(() => heatmapBlocks(ordered.length), [ordered.length]);
  const [rowBlock, setRowBlock] = useState(0);
  const [colBlock, setColBlock] = useState(0);
  const rowsShown = useMemo(() => ordered.slice(blocks[rowBlock]?.start ?? 0, blocks[rowBlock]?.end ?? ordered.length), [ordered, blocks, rowBlock]);
  const colsShown = useMemo(() => ordered.slice(blocks[colBlock]?.start ?? 0, blocks[colBlock]?.end ?? ordered.length), [ordered, blocks, colBlock]);
  const order = useMemo(() => rowsShown.map((s) => s.system), [rowsShown]);
  const cols = useMemo(() => colsShown.map((s) => s.system), [colsShown]);
  const rowIds = useMemo(() => rowsShown.map((s) => s.submissionId), [rowsShown]);
  const colIds = useMemo(() => colsShown.map((s) => s.submissionId), [colsShown]);
  // A board of more than 100 systems keeps its pairs apart: the block's tiles are fetched (ADR 0038).
  const shown = usePairsBetween(phaseId, args, board, rowIds, colIds);
  const cells = useMemo(
    () => (board ? blockCells(shown.pairs, new Set(rowIds), new Set(colIds), board.alpha, aggregation) : []),
    [board, shown.pairs, rowIds, colIds, aggregation],
  );
  const pairIds = useMemo(() => ({ a: aId ? [aId] : [], b: bId ? [bId] : [] }), [aId, bId]);
  const chosen = usePairsBetween(phaseId, args, board, pairIds.a, pairIds.b);
  const clusterTest = board ? methodInfo(board.methods, aggregation)?.testLabel : null;
  const clusterList = board ? orderSystems(board.systems, aggregation).map((s) => ({ system: s.system, cluster: clusterIn(s, aggregation) })) : [];

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
  // A hidden board stays hidden however often one asks: say why, offer no retry and no controls.
  const forbidden = !board && error instanceof ApiError && (error.code === 'FORBIDDEN' || error.status === 403) ? error : null;
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
      {forbidden ? (
        <Forbidden
          error={forbidden}
          instead={
            <>
              Your team&apos;s own submissions and scores are on the <Link to="/team">Team page</Link>; the comparison of all systems opens when the organisers publish the results (or make the board public).
            </>
          }
        />
      ) : (
        <LeaderboardControls state={state} metrics={board?.availableMetrics ?? []} onChange={setState} methods={board?.methods ?? []} mainAggregation={board?.mainAggregation} />
      )}
      {loading && !board && <Loading what="pairwise results" />}
      {error && !forbidden && <ErrorMessage error={error} onRetry={refetch} title="Could not compare the systems" />}
      {board && board.systems.length < 2 && <Empty>At least two scored systems are needed for a comparison.</Empty>}
      {board && board.systems.length >= 2 && (
        <>
          <p className="small" data-testid="pairwise-legend">
            Each cell is the Bradley–Terry probability that the row system beats the column system on an instance. * and a black outline mark pairs that differ
            significantly under {methodLabel(board.methods, aggregation).toLowerCase()}&apos;s cluster test ({clusterTest ?? testLabel(board.test, tests)}, {correctionLabel(board.correction, corrections)}{' '}
            correction, α = {board.alpha}). Select a cell to compare the two systems.
          </p>
          <p className="small" data-testid="pairwise-clusters">
            {board.clusterDefinition} Clusters here ({methodLabel(board.methods, aggregation).toLowerCase()}):{' '}
            {clusterList.map((c, i) => (
              <span key={c.system} data-testid="pairwise-cluster" data-system={c.system} data-cluster={String(c.cluster ?? '')}>
                {i > 0 && ', '}
                {c.system} ({c.cluster ?? '–'})
              </span>
            ))}
            .
          </p>
          {board.significanceWarnings.map((w) => (
            <p key={w} className="note note-warning" role="note">
              {w}
            </p>
          ))}
          {blocks.length > 1 && (
            <form className="controls" aria-label="Part of the matrix" onSubmit={(e) => e.preventDefault()}>
              <p className="small" data-testid="pairwise-blocks">
                {board.systems.length} systems: the matrix is shown {HEATMAP_BLOCK} rows × {HEATMAP_BLOCK} columns at a time, in the order of the board.
              </p>
              <BlockSelect label="Rows" blocks={blocks} value={rowBlock} onChoose={setRowBlock} />
              <BlockSelect label="Columns" blocks={blocks} value={colBlock} onChoose={setColBlock} />
            </form>
          )}
          {shown.loading && <Loading what="this part of the matrix" />}
          {shown.error && <ErrorMessage error={shown.error} onRetry={refetch} title="Could not load this part of the matrix" />}
          <PairwiseHeatmap cells={cells} order={order} cols={cols} onSelect={select} />
          <form className="controls" aria-label="Choose two systems" onSubmit={(e) => e.preventDefault()}>
            <SystemSelect label="System A" systems={board.systems} value={aId} onChoose={(id) => select(id, bId && bId !== id ? bId : (board.systems.find((s) => s.submissionId !== id)?.submissionId ?? ''))} />
            <SystemSelect label="System B" systems={board.systems} value={bId} onChoose={(id) => select(aId && aId !== id ? aId : (board.systems.find((s) => s.submissionId !== id)?.submissionId ?? ''), id)} />
          </form>
          {aId && bId && aId !== bId && <PairedView board={chosen.pairs === board.pairs ? board : { ...board, pairs: [...chosen.pairs] }} aId={aId} bId={bId} onClose={close} />}
        </>
      )}
    </article>
  );
}

/** A block of systems for the rows or the columns of the matrix. */
function BlockSelect({ label, blocks, value, onChoose }: { label: string; blocks: { label: string }[]; value: number; onChoose: (block: number) => void }) {
  return (
    <label>
      {label}
      <select value={String(value)} onChange={(e) => onChoose(Number(e.target.value))}>
        {blocks.map((b, i) => (
          <option key={b.label} value={String(i)}>
            {b.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One side of the pair: a choice among the board's systems; `onChoose` is not called for the empty "choose…" entry. */
function SystemSelect({ label, systems, value, onChoose }: { label: string; systems: { submissionId: string; system: string }[]; value: string | null | undefined; onChoose: (submissionId: string) => void }) {
  return (
    <label>
      {label}
      <select
        value={value ?? ''}
        onChange={(e) => {
          if (e.target.value) onChoose(e.target.value);
        }}
      >
        <option value="">choose…</option>
        {systems.map((s) => (
          <option key={s.submissionId} value={s.submissionId}>
            {s.system}
          </option>
        ))}
      </select>
    </label>
  );
}
