import { formatInterval, formatNumber, formatRankInterval } from '../lib/format';
import {
  AGGREGATION_LABELS,
  clusterBands,
  clusterOf,
  orderSystems,
  rankIntervalKind,
  rankIntervalOf,
  withinClusterSignificant,
  type Aggregation,
  type LeaderboardRow,
  type PairRow,
} from '../lib/leaderboard';
import { Link } from 'wouter';

interface Props {
  rows: readonly LeaderboardRow[];
  aggregation: Aggregation;
  higherIsBetter: boolean;
  /** Pairs, to mark systems that differ significantly from one in their own cluster. */
  pairs?: readonly PairRow[];
  /** The cluster rule in words (from the API); shown as the Cluster column's description. */
  clusterDefinition?: string;
  /** The metric's name for the corpus column, e.g. "BLEU". */
  metricName?: string;
}

const interval = (i: { low: number | null; high: number | null }) => [i.low, i.high] as const;

const DEFAULT_DEFINITION =
  'Clusters (WMT style): a new cluster starts only where every system above is significantly better than every system below; systems in the same cluster may still differ in a few pairs (marked ◆).';

/**
 * The leaderboard: systems in the order of the chosen aggregation, with cluster bands (a shaded
 * stripe, a band number and a rule between bands, so the grouping does not rely on colour). For
 * corpus-level metrics the corpus score (with sacreBLEU's bootstrap mean ± CI) is the main column.
 */
export function LeaderboardTable({ rows, aggregation, higherIsBetter, pairs = [], clusterDefinition = DEFAULT_DEFINITION, metricName = 'metric' }: Props) {
  const ordered = orderSystems(rows, aggregation);
  const bands = clusterBands(ordered, aggregation);
  const bandOf = (i: number) => bands?.findIndex((b) => i >= b.start && i <= b.end) ?? -1;
  const extra = aggregation === 'elo' || aggregation === 'trueskill';
  const hasCorpus = rows.some((r) => r.rank.corpus != null); // null, or absent
  const intervalKind = rankIntervalKind(aggregation);
  const lowerFirst = !higherIsBetter && (aggregation === 'corpus' || aggregation === 'mean' || aggregation === 'median');
  const sortedCol = (agg: Aggregation) => (agg === aggregation ? { 'aria-sort': lowerFirst ? ('ascending' as const) : ('descending' as const), className: 'num sorted' } : { className: 'num' });
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
            <th scope="col" {...sortedCol('corpus')} title={hasCorpus ? 'Corpus score from summed sufficient statistics (as sacreBLEU); ± is the half-width of its paired-bootstrap 95% interval' : 'Corpus score as stored'}>
              Corpus {metricName} {hasCorpus && <span className="muted small">± 95% CI</span>}
            </th>
            <th scope="col" {...sortedCol('mean')}>
              Mean of sentence {metricName} <span className="muted small">95% CI</span>
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
            <th
              scope="col"
              className="num"
              title={intervalKind === 'game order' ? 'Spread of ranks over random game orders (2.5–97.5%): order sensitivity, not sampling uncertainty' : 'Bootstrap 95% interval of the rank'}
            >
              Rank interval <span className="muted small">({intervalKind})</span>
            </th>
            <th scope="col" className="num" title={clusterDefinition}>
              Cluster
            </th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((row, i) => {
            const band = bandOf(i);
            const cluster = clusterOf(row, aggregation);
            const firstOfBand = bands !== null && i > 0 && bands[band]?.start === i;
            const inside = withinClusterSignificant(row, rows, pairs, aggregation);
            const value =
              aggregation === 'elo' ? row.elo : aggregation === 'trueskill' ? row.trueskill.mu : aggregation === 'corpus' ? row.corpusScore : aggregation === 'mean' ? row.mean : aggregation === 'median' ? row.median : row.bt;
            return (
              <tr
                key={row.submissionId}
                className={[band >= 0 ? (band % 2 === 0 ? 'band-even' : 'band-odd') : '', firstOfBand ? 'band-start' : '', row.isBaseline ? 'baseline' : ''].join(' ').trim() || undefined}
                data-testid="leaderboard-row"
                data-system={row.system}
                data-value={String(value)}
                data-cluster={cluster === null ? '' : String(cluster)}
              >
                <td className="num">{row.rank[aggregation] ?? row.rank.mean}</td>
                <th scope="row">
                  <Link to={`/submissions/${encodeURIComponent(row.submissionId)}`}>{row.system}</Link>
                  {row.isBaseline && (
                    <span className="badge badge-baseline" title="Baseline system provided by the organisers">
                      baseline
                    </span>
                  )}
                </th>
                <td>{row.team}</td>
                <td className={aggregation === 'corpus' ? 'num sorted' : 'num'} title={row.corpusSignature}>
                  {formatNumber(row.corpusScore)}
                  {row.corpusCi && row.corpusCi.ci !== null && <span className="muted small"> ± {formatNumber(row.corpusCi.ci)}</span>}
                </td>
                <td className={aggregation === 'mean' ? 'num sorted' : 'num'}>
                  {formatNumber(row.mean)} <span className="muted small">{formatInterval(interval(row.meanCi))}</span>
                </td>
                <td className={aggregation === 'median' ? 'num sorted' : 'num'}>{formatNumber(row.median)}</td>
                <td className={aggregation === 'bt' ? 'num sorted' : 'num'}>
                  {formatNumber(row.bt, 3)} <span className="muted small">{formatInterval(interval(row.btCi), 3)}</span>
                  {row.btTier > 0 && <span className="muted small" title="Bradley–Terry dominance tier: a group this system belongs to never beats a higher group"> tier {row.btTier + 1}</span>}
                </td>
                {extra && (
                  <td className="num sorted">
                    {aggregation === 'elo' ? formatNumber(row.elo, 0) : `${formatNumber(row.trueskill.mu)} ± ${formatNumber(row.trueskill.sigma)}`}
                  </td>
                )}
                <td className="num">{formatRankInterval(rankIntervalOf(row, aggregation).interval)}</td>
                <td className="num">
                  {cluster === null ? '–' : <span className="cluster-tag">{cluster}</span>}
                  {inside.length > 0 && (
                    <span className="within-cluster" data-testid="within-cluster" title={`Significantly different from ${inside.join(', ')} within the same cluster`}>
                      {' '}◆
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted small" data-testid="cluster-definition">
        {extra
          ? `${AGGREGATION_LABELS[aggregation]} has no significance clusters; its rank interval is the spread over random game orders.`
          : clusterDefinition}
      </p>
    </div>
  );
}
