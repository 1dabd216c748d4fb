import { formatInterval, formatNumber, formatRankInterval } from '../lib/format';
import { AGGREGATION_LABELS, clusterBands, clusterOf, orderSystems, type Aggregation, type LeaderboardRow } from '../lib/leaderboard';
import { Link } from '../lib/router';

interface Props {
  rows: readonly LeaderboardRow[];
  aggregation: Aggregation;
  higherIsBetter: boolean;
}

const interval = (i: { low: number | null; high: number | null }) => [i.low, i.high] as const;

function rankInterval(row: LeaderboardRow, aggregation: Aggregation): [number, number] | null {
  const key = aggregation === 'mean' || aggregation === 'median' ? aggregation : 'bt';
  const r = row.rankInterval[key];
  return [r.best, r.worst];
}

/**
 * The leaderboard: systems in the order of the chosen aggregation, with cluster bands (systems
 * not significantly different share a band: a shaded stripe, a band number and a rule between
 * bands, so the grouping does not rely on colour).
 */
export function LeaderboardTable({ rows, aggregation, higherIsBetter }: Props) {
  const ordered = orderSystems(rows, aggregation);
  const bands = clusterBands(ordered, aggregation);
  const bandOf = (i: number) => bands?.findIndex((b) => i >= b.start && i <= b.end) ?? -1;
  const extra = aggregation === 'elo' || aggregation === 'trueskill';
  const sortedCol = (agg: Aggregation) => (agg === aggregation ? { 'aria-sort': higherIsBetter || agg === 'bt' || extra ? ('descending' as const) : ('ascending' as const), className: 'num sorted' } : { className: 'num' });
  return (
    <div className="table-scroll">
      <table className="data-table leaderboard-table" data-testid="leaderboard">
        <caption className="visually-hidden">
          Leaderboard ordered by {AGGREGATION_LABELS[aggregation]}; {higherIsBetter ? 'higher' : 'lower'} scores are better
        </caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col">System</th>
            <th scope="col">Team</th>
            <th scope="col" className="num">
              Corpus
            </th>
            <th scope="col" {...sortedCol('mean')}>
              Mean <span className="muted small">95% CI</span>
            </th>
            <th scope="col" {...sortedCol('median')}>
              Median
            </th>
            <th scope="col" {...sortedCol('bt')}>
              BT strength <span className="muted small">95% CI</span>
            </th>
            {extra && (
              <th scope="col" {...sortedCol(aggregation)}>
                {AGGREGATION_LABELS[aggregation]}
              </th>
            )}
            <th scope="col" className="num" title="Bootstrap 95% interval of the rank">
              Rank interval{extra && <span className="muted small"> (BT)</span>}
            </th>
            <th scope="col" className="num" title="Systems in one cluster are not significantly different">
              Cluster
            </th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((row, i) => {
            const band = bandOf(i);
            const cluster = clusterOf(row, aggregation);
            const firstOfBand = bands !== null && i > 0 && bands[band]?.start === i;
            return (
                <tr
                  key={row.submissionId}
                  className={[band >= 0 ? (band % 2 === 0 ? 'band-even' : 'band-odd') : '', firstOfBand ? 'band-start' : '', row.isBaseline ? 'baseline' : ''].join(' ').trim() || undefined}
                  data-testid="leaderboard-row"
                  data-system={row.system}
                  data-value={String(extra ? (aggregation === 'elo' ? row.elo : row.trueskill.mu) : aggregation === 'mean' ? row.mean : aggregation === 'median' ? row.median : row.bt)}
                >
                  <td className="num">{row.rank[aggregation]}</td>
                  <th scope="row">
                    <Link to={`/submissions/${encodeURIComponent(row.submissionId)}`}>{row.system}</Link>
                    {row.isBaseline && (
                      <span className="badge badge-baseline" title="Baseline system provided by the organisers">
                        baseline
                      </span>
                    )}
                  </th>
                  <td>{row.team}</td>
                  <td className="num" title={row.corpusSignature}>
                    {formatNumber(row.corpusScore)}
                  </td>
                  <td className={aggregation === 'mean' ? 'num sorted' : 'num'}>
                    {formatNumber(row.mean)} <span className="muted small">{formatInterval(interval(row.meanCi))}</span>
                  </td>
                  <td className={aggregation === 'median' ? 'num sorted' : 'num'}>{formatNumber(row.median)}</td>
                  <td className={aggregation === 'bt' ? 'num sorted' : 'num'}>
                    {formatNumber(row.bt, 3)} <span className="muted small">{formatInterval(interval(row.btCi), 3)}</span>
                  </td>
                  {extra && (
                    <td className="num sorted">
                      {aggregation === 'elo' ? formatNumber(row.elo, 0) : `${formatNumber(row.trueskill.mu)} ± ${formatNumber(row.trueskill.sigma)}`}
                    </td>
                  )}
                  <td className="num">{formatRankInterval(rankInterval(row, aggregation))}</td>
                  <td className="num">{cluster === null ? '–' : <span className="cluster-tag">{cluster}</span>}</td>
                </tr>
            );
          })}
        </tbody>
      </table>
      {extra && <p className="muted small">Significance clusters and rank intervals come from mean, median and Bradley–Terry; {AGGREGATION_LABELS[aggregation]} has none, so the interval shown is Bradley–Terry’s.</p>}
    </div>
  );
}
