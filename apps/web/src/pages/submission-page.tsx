import { useEffect, useState } from 'react';
import { PhaseDocument, SubmissionDocument } from '../graphql/generated';
import { formatDate, formatNumber, progressPercent } from '../lib/format';
import { useQuery } from '../lib/graphql-client';
import { Link } from 'wouter';
import { DownloadLink } from '../components/download-link';
import { InstanceScores } from '../components/instance-scores';
import { metricLabel } from '../components/leaderboard-controls';
import { ErrorMessage, Loading } from '../components/status';
import { StatusBadge } from '../components/submission-list';
import { SubmissionActions } from '../components/submission-actions';
import { SubmissionMetadata } from '../components/submission-metadata';

export function SubmissionPage({ id }: { id: string }) {
  const [polling, setPolling] = useState(true);
  const { data, error, loading, refetch } = useQuery(SubmissionDocument, { id }, { poll: polling, pollMs: 1500 });
  const sub = data?.submission ?? null;
  const pending = sub ? sub.status === 'QUEUED' || sub.status === 'SCORING' : true;
  useEffect(() => setPolling(pending), [pending]);
  const phase = useQuery(PhaseDocument, { id: sub?.phaseId ?? '' }, { skip: !sub });
  const metrics = phase.data?.phase.task.metrics ?? [];
  const [metric, setMetric] = useState<string | null>(null);
  const chosen = metric ?? sub?.corpusScores[0]?.metric ?? metrics[0]?.key ?? null;
  // the direction comes with each corpus score, from the api's metric registry
  const chosenScore = sub?.corpusScores.find((c) => c.metric === chosen) ?? null;

  if (loading && !sub) return <Loading what="the submission" />;
  if (error && !sub) return <ErrorMessage error={error} onRetry={refetch} title="Could not load the submission" />;
  if (!sub) return null;
  const task = phase.data?.phase.task;
  const percent = progressPercent(sub.progressDone, sub.progressTotal);
  return (
    <article>
      <p className="breadcrumbs small">
        {task ? <Link to={`/tasks/${encodeURIComponent(task.slug)}?phase=${encodeURIComponent(sub.phaseId)}`}>{task.title}</Link> : 'Task'} ›{' '}
        {phase.data?.phase.name ?? 'phase'}
      </p>
      <h1>
        {sub.systemName} {sub.isBaseline && <span className="badge badge-baseline">baseline</span>}
        {sub.isPrimary && <span className="badge badge-open">primary</span>}
        {sub.moderation !== 'NONE' && <span className="badge badge-moderated">{sub.moderation.toLowerCase()}</span>}
      </h1>
      {sub.moderation !== 'NONE' && (
        <p className="status status-error" role="alert" data-testid="moderation">
          The organisers {sub.moderation === 'HIDDEN' ? 'hid' : 'disqualified'} this submission
          {sub.moderationReason ? `: ${sub.moderationReason}` : ' (the reason is shown only to its team and the organisers)'}
        </p>
      )}
      {sub.duplicateOf && (
        <p className="status status-empty" data-testid="duplicate">
          Identical to the earlier submission <Link to={`/submissions/${encodeURIComponent(sub.duplicateOf.id)}`}>{sub.duplicateOf.systemName}</Link>.
        </p>
      )}
      {sub.crossTeamDuplicateOf && (
        <p className="status status-error" data-testid="cross-team-duplicate">
          Organisers only: identical to <Link to={`/submissions/${encodeURIComponent(sub.crossTeamDuplicateOf.id)}`}>{sub.crossTeamDuplicateOf.systemName}</Link>, an earlier
          submission of another team.
        </p>
      )}
      <p className="muted">
        Team {sub.team.name} · submitted {formatDate(sub.createdAt)}
        {sub.scoredAt && ` · scored ${formatDate(sub.scoredAt)}`}
      </p>
      <SubmissionMetadata sub={sub} onChange={refetch} />
      <SubmissionActions sub={sub} onChange={refetch} />
      <section aria-labelledby="status-heading">
        <h2 id="status-heading">Status</h2>
        <p data-testid="submission-status">
          <StatusBadge status={sub.status} done={sub.progressDone} total={sub.progressTotal} />
          {sub.retryNote && (
            <span className="small muted" data-testid="submission-retry">
              {' '}
              · {sub.retryNote}
            </span>
          )}
        </p>
        {pending && (
          <div className="progress">
            <progress max={100} value={percent} aria-label="Scoring progress">
              {percent}%
            </progress>
            <span className="small">
              {sub.progressDone} of {sub.progressTotal || '?'} scoring steps done; this page updates by itself.
            </span>
          </div>
        )}
        {sub.status === 'FAILED' && <ErrorMessage error={sub.error ?? 'scoring failed'} title="Scoring failed" />}
      </section>
      {sub.status === 'SCORED' && (
        <>
          <section aria-labelledby="corpus-heading">
            <div className="section-head">
              <h2 id="corpus-heading">Corpus scores</h2>
              <div className="actions" hidden={!sub.instanceScoresVisible}>
                <DownloadLink href={`/api/submissions/${encodeURIComponent(sub.id)}/scores.csv`} fileName="scores.csv" testId="download-csv">
                  Download CSV
                </DownloadLink>
                <DownloadLink href={`/api/submissions/${encodeURIComponent(sub.id)}/scores.jsonl`} fileName="scores.jsonl" testId="download-jsonl">
                  Download JSONL
                </DownloadLink>
              </div>
            </div>
            {sub.corpusScores.some((c) => c.part !== 'all') && (
              <p className="small muted" data-testid="corpus-part">
                Computed on the {sub.corpusScores[0]?.part} part of the test set (the phase splits its instances; the final ranking uses the private part once published).
              </p>
            )}
            <div className="table-scroll">
              <table className="data-table" data-testid="corpus-scores">
                <thead>
                  <tr>
                    <ScoreHeadings />
                  </tr>
                </thead>
                <tbody>
                  {sub.corpusScores.map((c) => (
                    <tr key={c.metric}>
                      <ScoreCells score={c} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          {sub.scoreHistory.length > 0 && (
            <section aria-labelledby="history-heading">
              <h2 id="history-heading">Earlier scores</h2>
              <p className="small muted">Replaced when the organisers re-scored the phase; each keeps the signature it was computed under.</p>
              <table className="data-table" data-testid="score-history">
                <thead>
                  <tr>
                    <th scope="col">Replaced</th>
                    <ScoreHeadings />
                  </tr>
                </thead>
                <tbody>
                  {sub.scoreHistory.map((h, i) => (
                    <tr key={`${h.metric}-${i}`}>
                      <td>{formatDate(h.replacedAt)}</td>
                      <ScoreCells score={h} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          {chosenScore && (
            <section aria-labelledby="instances-heading">
              <div className="section-head">
                <h2 id="instances-heading">Per-instance scores</h2>
                <label className="inline-label">
                  Metric{' '}
                  <select value={chosenScore.metric} onChange={(e) => setMetric(e.target.value)}>
                    {sub.corpusScores.map((c) => (
                      <option key={c.metric} value={c.metric}>
                        {metricLabel(c.metric)}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <InstanceScores key={chosenScore.metric} submissionId={sub.id} metric={chosenScore.metric} higherIsBetter={chosenScore.higherIsBetter} scoresVisible={sub.instanceScoresVisible} />
            </section>
          )}
        </>
      )}
    </article>
  );
}

/** The column headings of a score: metric, value, signature (the cells of `ScoreCells`). */
function ScoreHeadings() {
  return (
    <>
      <th scope="col">Metric</th>
      <th scope="col" className="num">
        Score
      </th>
      <th scope="col">Signature</th>
    </>
  );
}

/** One score's cells: its metric (the row's heading), its value and the signature it was computed under. */
function ScoreCells({ score }: { score: { metric: string; value: number; signature: string } }) {
  return (
    <>
      <th scope="row">{metricLabel(score.metric)}</th>
      <td className="num">{formatNumber(score.value)}</td>
      <td className="signature">{score.signature}</td>
    </>
  );
}
