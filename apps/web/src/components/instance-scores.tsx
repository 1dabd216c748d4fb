import { useState } from 'react';
import { InstanceScoresDocument } from '../graphql/generated';
import { formatNumber } from '../lib/format';
import { useQuery } from '../lib/graphql-client';
import { instanceOrder, type InstanceSort } from '../lib/metrics';
import { Empty, ErrorMessage, Loading } from './status';

export const PAGE_SIZE = 20;

interface Props {
  submissionId: string;
  metric: string;
  higherIsBetter: boolean;
  /** False where the caller gets outputs without per-instance scores (Submission.instanceScoresVisible). */
  scoresVisible?: boolean;
}

/** One metric's per-instance scores: sortable (worst first by default) and paged. */
export function InstanceScores({ submissionId, metric, higherIsBetter, scoresVisible = true }: Props) {
  // Without per-instance scores (corpus scores only before publishing) only test-set order is possible.
  const [sort, setSort] = useState<InstanceSort>(scoresVisible ? 'worst' : 'position');
  const [page, setPage] = useState(0);
  const { data, error, loading, refetch } = useQuery(InstanceScoresDocument, {
    submissionId,
    metric,
    order: instanceOrder(sort, higherIsBetter),
    offset: page * PAGE_SIZE,
    limit: PAGE_SIZE,
  });
  const result = data?.instanceScores;
  const pages = result ? Math.max(1, Math.ceil(result.total / PAGE_SIZE)) : 1;
  function changeSort(next: InstanceSort) {
    setSort(next);
    setPage(0);
  }
  return (
    <div className="instance-scores">
      <div className="controls">
        {!scoresVisible && (
          <p className="small muted" data-testid="instance-scores-hidden">
            This phase shows teams corpus scores only until the organisers publish the results: per-instance scores would reveal the hidden references.
          </p>
        )}
        <label hidden={!scoresVisible}>
          Order
          <select value={sort} onChange={(e) => changeSort(e.target.value as InstanceSort)} data-testid="instance-order">
            <option value="worst">Worst first</option>
            <option value="best">Best first</option>
            <option value="position">Test-set order</option>
          </select>
        </label>
        <div className="pager" role="group" aria-label="Pages">
          <button type="button" onClick={() => setPage((p) => p - 1)} disabled={page === 0}>
            ← Previous
          </button>
          <span aria-live="polite">
            Page {page + 1} of {pages}
            {result && ` (${result.total} instances)`}
          </span>
          <button type="button" onClick={() => setPage((p) => p + 1)} disabled={!result || page + 1 >= pages}>
            Next →
          </button>
        </div>
      </div>
      {loading && !result && <Loading what="instance scores" />}
      {error && <ErrorMessage error={error} onRetry={refetch} title="Could not load the instance scores" />}
      {result && result.rows.length === 0 && <Empty>No instance scores for this metric.</Empty>}
      {/* Keyboard users scroll a table wider than the screen too (axe: scrollable-region-focusable). */}
      {result && result.rows.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={`Per-instance ${metric} scores`}>
          <table className={loading ? 'data-table text-table is-loading' : 'data-table text-table'} data-testid="instance-table">
            <caption className="visually-hidden">Per-instance {metric} scores</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  #
                </th>
                <th scope="col" className="num" aria-sort={sort === 'position' ? 'none' : sort === 'worst' === higherIsBetter ? 'ascending' : 'descending'}>
                  Score
                </th>
                <th scope="col">Source</th>
                <th scope="col">Output</th>
                <th scope="col">Reference</th>
              </tr>
            </thead>
            <tbody>
              {result.rows.map((r) => (
                <tr key={r.instanceId} data-testid="instance-row">
                  <td className="num" title={`instance ${r.instanceId}`}>
                    {r.position + 1}
                  </td>
                  <td className="num">{r.score === null ? <span className="muted">hidden</span> : formatNumber(r.score)}</td>
                  <td lang="und">{r.source}</td>
                  <td>{r.output}</td>
                  <td>{r.references ? r.references.join(' ‖ ') : <span className="muted" title="shown once the organisers publish the results">hidden until published</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
