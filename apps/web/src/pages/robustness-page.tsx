import * as Plot from '@observablehq/plot';
import { useState } from 'react';
import { RobustnessDocument, RobustnessTradeoffCardDocument, RunRobustnessDocument, TaskDocument, type RobustnessQuery } from '../graphql/generated';
import { organises, useAuth } from '../lib/auth';
import { formatDate, formatInterval, formatNumber } from '../lib/format';
import { ApiError, request, useQuery } from '../lib/graphql-client';
import { phenomenonBars, TRADEOFF_MEASURES, tradeoffPartners, tradeoffRows, type PhenomenonBar, type TradeoffRow } from '../lib/robustness';
import { Link } from 'wouter';
import { useSearchParam } from '../lib/use-url-state';
import { metricLabel } from '../components/leaderboard-controls';
import { PlotFigure } from '../components/plot-figure';
import { Empty, ErrorMessage, Loading } from '../components/status';

type Report = RobustnessQuery['robustness'][number];

function RobustnessChart({ bars }: { bars: PhenomenonBar[] }) {
  return (
    <PlotFigure
      label="Adversarial accuracy per phenomenon with 95% intervals; the dashed line is chance (0.5)"
      testId="robustness-chart"
      deps={[bars]}
      build={() =>
        Plot.plot({
          width: 720,
          height: 40 + 30 * bars.length,
          marginLeft: 180,
          marginRight: 60,
          style: { fontSize: '12px' },
          x: { domain: [0, 1], label: 'accuracy (share of pairs where the metric prefers the correct candidate) →', grid: true },
          y: { domain: bars.map((b) => b.label), label: null },
          marks: [
            Plot.barX(bars, { y: 'label', x: 'accuracy', fill: '#3b528b', insetTop: 4, insetBottom: 4 }),
            Plot.ruleY(
              bars.filter((b) => b.low !== null && b.high !== null),
              { y: 'label', x1: 'low', x2: 'high', stroke: 'black', strokeWidth: 2 },
            ),
            Plot.ruleX([0.5], { stroke: '#b35806', strokeDasharray: '5,3', strokeWidth: 2 }),
            Plot.text(bars, { y: 'label', x: 1, text: (b: PhenomenonBar) => formatNumber(b.accuracy), textAnchor: 'start', dx: 6 }),
          ],
        })
      }
    />
  );
}

function TradeoffChart({ rows, partner }: { rows: TradeoffRow[]; partner: string }) {
  const ends = [...new Set(rows.map((r) => r.measure))].flatMap((m) => rows.filter((r) => r.measure === m).slice(-1)); // the last row of each measure
  return (
    <PlotFigure
      label={`Adversarial accuracy${rows.some((r) => r.measure === TRADEOFF_MEASURES.pearson) ? ' and segment-level Pearson with human scores' : ''} of w·NLI + (1−w)·${metricLabel(partner)} against the NLI weight w`}
      testId="tradeoff-chart"
      deps={[rows, partner]}
      build={() =>
        Plot.plot({
          width: 720,
          height: 300,
          marginRight: 200,
          style: { fontSize: '12px' },
          x: { domain: [0, 1], label: `w (weight of NLI; 0 = ${metricLabel(partner)} alone, 1 = NLI alone) →`, grid: true },
          y: { domain: [0, 1], label: '↑ accuracy, Pearson r', grid: true },
          marks: [
            Plot.areaY(
              rows.filter((r) => r.low !== null && r.high !== null),
              { x: 'w', y1: 'low', y2: 'high', fill: '#3b528b', fillOpacity: 0.15 },
            ),
            Plot.line(
              rows.filter((r) => r.measure === TRADEOFF_MEASURES.accuracy),
              { x: 'w', y: 'value', stroke: '#3b528b', strokeWidth: 2 },
            ),
            Plot.line(
              rows.filter((r) => r.measure === TRADEOFF_MEASURES.pearson),
              { x: 'w', y: 'value', stroke: '#b35806', strokeWidth: 2, strokeDasharray: '6,3' },
            ),
            Plot.dot(rows, {
              x: 'w',
              y: 'value',
              symbol: (r: TradeoffRow) => (r.measure === TRADEOFF_MEASURES.accuracy ? 'circle' : 'square'),
              fill: (r: TradeoffRow) => (r.measure === TRADEOFF_MEASURES.accuracy ? '#3b528b' : '#b35806'),
            }),
            Plot.text(ends, { x: 'w', y: 'value', text: 'measure', textAnchor: 'start', dx: 8 }),
          ],
        })
      }
    />
  );
}

/** MENLI's trade-off curve of an NLI report: robustness and (where the test set has human scores) correlation per w. */
function TradeoffView({ report, phaseId }: { report: Report; phaseId: string | null }) {
  const points = report.tradeoff ?? [];
  const partners = tradeoffPartners(points);
  const [chosen, setChosen] = useSearchParam('with');
  const partner = partners.find((p) => p === chosen) ?? partners[0] ?? null;
  const card = useQuery(RobustnessTradeoffCardDocument, { phaseId: phaseId ?? '', metric: report.metric }, { skip: !phaseId || !partner });
  if (!partner) return null;
  const correlation = card.data?.reportCard.metrics.find((m) => m.metric === report.metric)?.tradeoff ?? null;
  const rows = tradeoffRows(partner, points, correlation);
  return (
    <section aria-labelledby="tradeoff-heading">
      <h2 id="tradeoff-heading">Combined with NLI: robustness against correlation</h2>
      <p className="small">
        C = w·NLI + (1−w)·M, both min–max scaled (on the suite per phenomenon over the correct and adversarial candidates; for the
        correlation over every stored score of the phase). MENLI recommends w ≈ .2–.3 for MT, .8 for summarisation.
      </p>
      {partners.length > 1 && (
        <div className="controls">
          <label>
            Combined with
            <select value={partner} onChange={(e) => setChosen(e.target.value)}>
              {partners.map((p) => (
                <option key={p} value={p}>
                  {metricLabel(p)}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      {card.loading && <Loading what="correlations with human scores" />}
      <TradeoffChart rows={rows} partner={partner} />
      {!card.loading && !correlation && <p className="muted small">No human scores on this task’s test set, so only the accuracy is drawn.</p>}
    </section>
  );
}

function ReportView({ report, phaseId }: { report: Report; phaseId: string | null }) {
  const bars = phenomenonBars(report.phenomena);
  if (report.status === 'QUEUED' || report.status === 'RUNNING') {
    return (
      <p className="status status-loading" role="status">
        <span className="spinner" aria-hidden="true" /> {report.status === 'QUEUED' ? 'Queued' : 'Running'} since {formatDate(report.createdAt)}; this page updates by itself.
      </p>
    );
  }
  if (report.status === 'FAILED') return <ErrorMessage error={report.error ?? 'the robustness run failed'} title="Robustness run failed" />;
  if (bars.length === 0) return <Empty>No phenomena in this report.</Empty>;
  return (
    <>
      {report.overall && (
        <p data-testid="robustness-summary">
          Macro accuracy (mean over phenomena, the MENLI paper&apos;s number) <strong>{formatNumber(report.overall.accuracy, 3)}</strong>{' '}
          {formatInterval([report.overall.ci.low, report.overall.ci.high], 3)}
          {report.pooledAccuracy && (
            <>
              ; pooled accuracy (passes / pairs) <strong>{formatNumber(report.pooledAccuracy.accuracy, 3)}</strong>{' '}
              {formatInterval([report.pooledAccuracy.ci.low, report.pooledAccuracy.ci.high], 3)}
            </>
          )}{' '}
          on {report.overall.n} pairs{report.failingCount !== null && `; the metric did not prefer the correct candidate on ${report.failingCount} of them`}.
        </p>
      )}
      <RobustnessChart bars={bars} />
      <div className="table-scroll">
        <table className="data-table compact" data-testid="robustness-table">
          <caption className="visually-hidden">Accuracy per phenomenon</caption>
          <thead>
            <tr>
              <th scope="col">Phenomenon</th>
              <th scope="col" className="num">
                Accuracy <span className="muted small">95% CI</span>
              </th>
              <th scope="col" className="num">
                Passed / pairs
              </th>
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.code}>
                <th scope="row">
                  {b.label} <span className="muted small">{b.code}</span>
                </th>
                <td className="num">
                  {formatNumber(b.accuracy, 3)} <span className="muted small">{formatInterval([b.low, b.high], 3)}</span>
                </td>
                <td className="num">
                  {b.passed} / {b.n}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">
        Suite {report.suite}, mode {report.mode.toLowerCase()}
        {report.bootstrap && `; ${Math.round(report.bootstrap.confidence * 100)}% intervals from ${report.bootstrap.resamples} bootstrap resamples (seed ${report.bootstrap.seed})`}
        {report.finishedAt && `; finished ${formatDate(report.finishedAt)}`}. <span className="signature">{report.signature}</span>
      </p>
      {report.tradeoff && report.tradeoff.length > 0 && <TradeoffView report={report} phaseId={phaseId} />}
    </>
  );
}

/** Per-phenomenon adversarial accuracy of a task's metrics (MENLI preference suites; issue #7). */
export function RobustnessPage({ slug }: { slug: string }) {
  const { me } = useAuth();
  const task = useQuery(TaskDocument, { slug });
  const [pending, setPending] = useState(false);
  const { data, error, loading, refetch } = useQuery(RobustnessDocument, { taskSlug: slug }, { poll: pending, pollMs: 2000 });
  const reports = data?.robustness ?? [];
  const busy = reports.some((r) => r.status === 'QUEUED' || r.status === 'RUNNING');
  if (busy !== pending) setPending(busy);
  const [metric, setMetric] = useSearchParam('metric');
  const chosen = reports.find((r) => r.metric === metric) ?? reports[0] ?? null;
  const [runError, setRunError] = useState<ApiError | null>(null);
  const [running, setRunning] = useState(false);
  async function run() {
    setRunning(true);
    setRunError(null);
    try {
      await request(RunRobustnessDocument, { taskSlug: slug, metric: null });
      refetch();
    } catch (e) {
      setRunError(e instanceof ApiError ? e : new ApiError(String(e), []));
    } finally {
      setRunning(false);
    }
  }
  return (
    <article>
      <p className="breadcrumbs small">
        <Link to={`/tasks/${encodeURIComponent(slug)}`}>← {task.data?.task.title ?? slug}</Link>
      </p>
      <h1>Metric robustness</h1>
      <p className="small">
        How often each metric prefers the correct candidate over an adversarial one (MENLI): per phenomenon, with 95% intervals. The dashed line is chance.
      </p>
      {organises(me) && (
        <p>
          <button type="button" onClick={() => void run()} disabled={running || busy}>
            {running ? 'Queuing…' : reports.length ? "Run again for all of the task's metrics" : "Run for all of the task's metrics"}
          </button>
        </p>
      )}
      {runError && <ErrorMessage error={runError} title="Could not start the run" />}
      {loading && !data && <Loading what="robustness reports" />}
      {error && <ErrorMessage error={error} onRetry={refetch} title="Could not load the robustness reports" />}
      {data && reports.length === 0 && <Empty>No robustness reports for this task yet{organises(me) ? '; run one above.' : '.'}</Empty>}
      {chosen && (
        <>
          <div className="controls">
            <label>
              Metric
              <select value={chosen.metric} onChange={(e) => setMetric(e.target.value)}>
                {reports.map((r) => (
                  <option key={r.id} value={r.metric}>
                    {metricLabel(r.metric)} ({r.status.toLowerCase()})
                  </option>
                ))}
              </select>
            </label>
          </div>
          <ReportView report={chosen} phaseId={task.data?.task.phases.find((p) => p.testSet && p.scoresVisible)?.id ?? null} />
        </>
      )}
    </article>
  );
}
