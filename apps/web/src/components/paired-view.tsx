import * as Plot from '@observablehq/plot';
import { useEffect, useMemo, useState } from 'react';
import { InstanceScoresDocument, type InstanceScoresQuery } from '../graphql/generated';
import { formatNumber, formatPValue } from '../lib/format';
import { ApiError, request } from '../lib/graphql-client';
import { findPair, type LeaderboardData } from '../lib/leaderboard';
import { largestDifferences, pairInstances, winTieLoss } from '../lib/paired';
import { testLabel, useSignificanceTests } from '../lib/test-registry';
import { PlotFigure } from './plot-figure';
import { ErrorMessage, Loading } from './status';

type Row = InstanceScoresQuery['instanceScores']['rows'][number];

/** Rows with a score (a phase that shows teams corpus scores only sends none before publishing). */
function withScores(rows: Row[]): (Row & { score: number })[] {
  return rows.flatMap((r) => (r.score === null ? [] : [{ ...r, score: r.score }]));
}

/** Every instance score of a submission for one metric (pages of 1,000, the API's maximum). */
async function allInstanceScores(submissionId: string, metric: string, signal: AbortSignal): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = (await request(InstanceScoresDocument, { submissionId, metric, order: 'POSITION', offset, limit: 1000 }, signal)).instanceScores;
    rows.push(...page.rows);
    if (rows.length >= page.total || page.rows.length === 0) return rows;
  }
}

interface Props {
  board: LeaderboardData;
  aId: string;
  bId: string;
  onClose: () => void;
}

/** Two systems side by side: distribution of per-instance differences, counts, tests, largest differences. */
export function PairedView({ board, aId, bId, onClose }: Props) {
  const tests = useSignificanceTests();
  const a = board.systems.find((s) => s.submissionId === aId);
  const b = board.systems.find((s) => s.submissionId === bId);
  const found = findPair(board.pairs, aId, bId);
  const [scores, setScores] = useState<{ a: Row[]; b: Row[] } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const ctl = new AbortController();
    setScores(null);
    setError(null);
    Promise.all([allInstanceScores(aId, board.metric, ctl.signal), allInstanceScores(bId, board.metric, ctl.signal)]).then(
      ([ra, rb]) => setScores({ a: ra, b: rb }),
      (e: unknown) => !ctl.signal.aborted && setError(e instanceof ApiError ? e : new ApiError(String(e), [])),
    );
    return () => ctl.abort();
  }, [aId, bId, board.metric, attempt]);
  const pairs = useMemo(() => (scores ? pairInstances(withScores(scores.a), withScores(scores.b), board.higherIsBetter) : []), [scores, board.higherIsBetter]);
  const counts = useMemo(() => winTieLoss(pairs), [pairs]);
  const top = useMemo(() => largestDifferences(pairs, 10), [pairs]);

  if (!a || !b) return <ErrorMessage error="These two systems are not on this leaderboard." />;
  const pair = found?.pair ?? null;
  const flipped = found?.flipped ?? false;
  const diffLabel = `${a.system} − ${b.system}${board.higherIsBetter ? '' : ' (sign flipped: lower is better)'}`;
  return (
    <section className="paired-view" aria-labelledby="paired-heading" data-testid="paired-view">
      <div className="section-head">
        <h2 id="paired-heading" tabIndex={-1}>
          {a.system} vs {b.system}
        </h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="cards">
        <div className="card" data-testid="win-tie-loss">
          <h3>Instances</h3>
          <p>
            <strong>{a.system}</strong> better on <strong data-testid="wins">{pair ? (flipped ? pair.losses : pair.wins) : counts.wins}</strong>, tied on{' '}
            <strong data-testid="ties">{pair ? pair.ties : counts.ties}</strong>, worse on <strong data-testid="losses">{pair ? (flipped ? pair.wins : pair.losses) : counts.losses}</strong>.
          </p>
          {pair && (
            <p className="small">
              Bradley–Terry P({a.system} beats {b.system}) = {formatNumber(flipped ? 1 - (pair.pBt ?? NaN) : pair.pBt)}; mean difference{' '}
              {formatNumber(flipped ? -(pair.meanDiff ?? NaN) : pair.meanDiff)}, median difference {formatNumber(flipped ? -(pair.medianDiff ?? NaN) : pair.medianDiff)}.
            </p>
          )}
        </div>
        {pair && (
          <div className="card">
            <h3>Paired tests</h3>
            <table className="data-table compact" data-testid="paired-tests">
              <thead>
                <tr>
                  <th scope="col">Test</th>
                  <th scope="col" className="num">
                    p
                  </th>
                </tr>
              </thead>
              <tbody>
                {/* every test the board computed for the pair, in the registry's order, labelled by the registry */}
                {pair.testResults.filter((r) => r.p !== null).map((r) => (
                  <tr key={r.test} className={pair.pTest === r.test ? 'sorted' : undefined}>
                    <th scope="row">{testLabel(r.test, tests)}</th>
                    <td className="num">{formatPValue(r.p)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="small">
              {testLabel(pair.pTest, tests)} after {board.correction.toLowerCase()} correction: p {formatPValue(pair.pAdjusted).startsWith('<') ? '' : '= '}
              {formatPValue(pair.pAdjusted)} —{' '}
              <strong>{pair.pAdjusted !== null && pair.pAdjusted < 0.05 ? 'significant at α = 0.05' : 'not significant at α = 0.05'}</strong>
            </p>
          </div>
        )}
      </div>
      {error && <ErrorMessage error={error} onRetry={() => setAttempt((n) => n + 1)} title="Could not load the instance scores" />}
      {!scores && !error && <Loading what="per-instance scores" />}
      {scores && (
        <>
          <h3>Per-instance differences</h3>
          <PlotFigure
            label={`Histogram of per-instance differences, ${diffLabel}`}
            testId="difference-histogram"
            deps={[pairs]}
            build={() =>
              Plot.plot({
                height: 240,
                marginLeft: 50,
                x: { label: `${diffLabel} →`, labelAnchor: 'center' },
                y: { label: 'instances', grid: true },
                marks: [
                  Plot.rectY(pairs, Plot.binX<Plot.RectYOptions>({ y: 'count' }, { x: 'diff', thresholds: 40, fill: '#3b528b', inset: 0.5 })),
                  Plot.ruleX([0], { stroke: 'black', strokeDasharray: '4,3' }),
                  Plot.ruleY([0]),
                ],
              })
            }
          />
          <h3>Where they differ most</h3>
          <ol className="differences" data-testid="largest-differences">
            {top.map((p) => (
              <li key={p.instanceId}>
                <p className="small muted">
                  Instance {p.instanceId} (#{p.position + 1}): {a.system} {formatNumber(p.scoreA)}, {b.system} {formatNumber(p.scoreB)}
                </p>
                <dl>
                  <dt>Source</dt>
                  <dd>{p.source}</dd>
                  <dt>Reference</dt>
                  <dd>{p.references ? p.references.join(' ‖ ') : 'hidden until published'}</dd>
                  <dt>{a.system}</dt>
                  <dd>{p.outputA}</dd>
                  <dt>{b.system}</dt>
                  <dd>{p.outputB}</dd>
                </dl>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
