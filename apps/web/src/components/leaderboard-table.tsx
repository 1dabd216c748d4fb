import { formatInterval, formatNumber, formatRankInterval } from '../lib/format';
import {
  clusterBands,
  clusterIn,
  methodInfo,
  methodLabel,
  orderSystems,
  TABLE_PAGE,
  valueOf,
  withinClusterSignificantAll,
  type Aggregation,
  type LeaderboardRow,
  type MethodInfo,
  type PairRow,
} from '../lib/leaderboard';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { safeHref } from './submission-metadata';

interface Props {
  rows: readonly LeaderboardRow[];
  /** The board's ranking methods: one column each, in this order. */
  methods: readonly MethodInfo[];
  aggregation: Aggregation;
  higherIsBetter: boolean;
  /** Pairs, to mark systems that differ significantly from one in their own cluster. */
  pairs?: readonly PairRow[];
  /** The cluster rule in words (from the API); shown as the Cluster column's description. */
  clusterDefinition?: string;
  /** The paper and code links of rows, by submission id (http(s) ones are shown). */
  links?: ReadonlyMap<string, { paperUrl: string | null; codeUrl: string | null }>;
}

/** A row's paper and code links: http(s) only, opened without the board as opener or referrer. */
function RowLinks({ paperUrl, codeUrl }: { paperUrl: string | null; codeUrl: string | null }) {
  const paper = safeHref(paperUrl);
  const code = safeHref(codeUrl);
  if (!paper && !code) return null;
  return (
    <span className="row-links small" data-testid="row-links">
      {paper && (
        <a href={paper} rel="noopener noreferrer nofollow" target="_blank">
          paper
        </a>
      )}
      {code && (
        <a href={code} rel="noopener noreferrer nofollow" target="_blank">
          code
        </a>
      )}
    </span>
  );
}

const DEFAULT_DEFINITION =
  'Clusters (WMT style): a new cluster starts only where every system above is significantly better than every system below; systems in the same cluster may still differ in a few pairs (marked ◆).';

/** Three decimals for values within ±1 (strengths, win rates), two above. */
const digitsFor = (v: number | null | undefined): number => (v !== null && v !== undefined && Math.abs(v) < 1 ? 3 : 2);

/**
 * The leaderboard: systems in the order of the chosen method, one column per method the board
 * describes (value and 95% interval), with cluster bands (a shaded stripe, a band number and a
 * rule between bands, so the grouping does not rely on colour).
 */
export function LeaderboardTable({ rows, methods, aggregation, higherIsBetter, pairs = [], clusterDefinition = DEFAULT_DEFINITION, links }: Props) {
  const ordered = useMemo(() => orderSystems(rows, aggregation), [rows, aggregation]);
  const inside = useMemo(() => withinClusterSignificantAll(rows, pairs, aggregation), [rows, pairs, aggregation]);
  // Large boards: TABLE_PAGE rows at a time, in rank order (bands and ranks as on the whole board).
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(ordered.length / TABLE_PAGE));
  const current = Math.min(page, pages - 1);
  const first = current * TABLE_PAGE;
  const shown = ordered.slice(first, first + TABLE_PAGE);
  const bands = clusterBands(ordered, aggregation);
  const bandOf = (i: number) => bands?.findIndex((b) => i >= b.start && i <= b.end) ?? -1;
  const selected = methodInfo(methods, aggregation);
  const label = methodLabel(methods, aggregation);
  const hasInterval = (key: string) => rows.some((r) => valueOf(r, key)?.interval != null);
  const lowerFirst = !higherIsBetter && selected?.direction === 'metric';
  const sortedCol = (key: string) => (key === aggregation ? { 'aria-sort': lowerFirst ? ('ascending' as const) : ('descending' as const), className: 'num sorted' } : { className: 'num' });
  return (
    // Focusable, so keyboard users can scroll it where it is wider than the screen (axe: scrollable-region-focusable).
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Leaderboard">
      <table className="data-table leaderboard-table" data-testid="leaderboard">
        <caption className="visually-hidden">
          Leaderboard ordered by {label}; {higherIsBetter ? 'higher' : 'lower'} scores are better
        </caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col">
              System <span className="muted small">team</span>
            </th>
            {methods.map((m) => (
              <th key={m.key} scope="col" {...sortedCol(m.key)} title={m.description} data-method={m.key}>
                {m.label} {hasInterval(m.key) && <span className="muted small">95% CI</span>}
              </th>
            ))}
            <th scope="col" className="num" title={selected?.description}>
              Rank interval {selected && <span className="muted small">({selected.intervalKind})</span>}
            </th>
            <th scope="col" className="num" title={clusterDefinition}>
              Cluster
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row, shownIndex) => {
            const i = first + shownIndex;
            const band = bandOf(i);
            const own = valueOf(row, aggregation);
            const cluster = clusterIn(row, aggregation);
            const firstOfBand = bands !== null && i > 0 && bands[band]?.start === i;
            const within = inside.get(row.submissionId) ?? [];
            return (
              <tr
                key={row.submissionId}
                className={[band >= 0 ? (band % 2 === 0 ? 'band-even' : 'band-odd') : '', firstOfBand ? 'band-start' : '', row.isBaseline ? 'baseline' : ''].join(' ').trim() || undefined}
                data-testid="leaderboard-row"
                data-system={row.system}
                data-value={String(own?.value ?? null)}
                data-cluster={cluster === null ? '' : String(cluster)}
              >
                <td className="num">{own?.rank ?? '–'}</td>
                <th scope="row">
                  <Link to={`/submissions/${encodeURIComponent(row.submissionId)}`}>{row.system}</Link>
                  {row.isBaseline && (
                    <span className="badge badge-baseline" title="Baseline system provided by the organisers">
                      baseline
                    </span>
                  )}
                  {row.btTier > 0 && <span className="muted small" title="Bradley–Terry dominance tier: a group this system belongs to never beats a higher group"> BT tier {row.btTier + 1}</span>}
                  {/* The team under the system, not a column of its own: the board fits 1,280 px with every method (issue #22). */}
                  <span className="row-team muted small" data-testid="row-team">
                    {row.team}
                  </span>
                  {links?.get(row.submissionId) && <RowLinks {...(links.get(row.submissionId) ?? { paperUrl: null, codeUrl: null })} />}
                </th>
                {methods.map((m) => {
                  const v = valueOf(row, m.key);
                  const digits = digitsFor(v?.value);
                  return (
                    <td key={m.key} className={m.key === aggregation ? 'num sorted' : 'num'}>
                      {formatNumber(v?.value, digits)} {v?.interval && <span className="muted small">{formatInterval([v.interval.low, v.interval.high], digits)}</span>}
                    </td>
                  );
                })}
                <td className="num">{formatRankInterval(own ? [own.rankInterval.best, own.rankInterval.worst] : null)}</td>
                <td className="num">
                  {cluster === null ? '–' : <span className="cluster-tag">{cluster}</span>}
                  {within.length > 0 && (
                    <span className="within-cluster" data-testid="within-cluster" title={`Significantly different from ${within.join(', ')} within the same cluster`}>
                      {' '}◆
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {pages > 1 && (
        <nav className="controls" aria-label="Leaderboard pages" data-testid="leaderboard-pages">
          <button type="button" onClick={() => setPage(current - 1)} disabled={current === 0}>
            ← Previous {TABLE_PAGE}
          </button>
          <span className="small" aria-live="polite">
            Systems {first + 1}–{first + shown.length} of {ordered.length}
          </span>
          <button type="button" onClick={() => setPage(current + 1)} disabled={current === pages - 1}>
            Next {TABLE_PAGE} →
          </button>
        </nav>
      )}
      <p className="muted small" data-testid="cluster-definition">
        {selected && !selected.clusters ? `${label} has no significance clusters; its rank interval is the ${selected.intervalKind} spread (${selected.description})` : clusterDefinition}
      </p>
    </div>
  );
}
