import { useEffect, useState } from 'react';
import { PhaseSubmissionsDocument, TaskDocument } from '../graphql/generated';
import { formatDate, formatLanguages, phaseTiming } from '../lib/format';
import { useQuery } from '../lib/graphql-client';
import { Link } from 'wouter';
import { useLeaderboardState } from '../lib/use-url-state';
import { LeaderboardView } from '../components/leaderboard-view';
import { Empty, ErrorMessage, Loading } from '../components/status';
import { SubmissionList } from '../components/submission-list';
import { DownloadLink } from '../components/download-link';

export function TaskPage({ slug }: { slug: string }) {
  const { data, error, loading, refetch } = useQuery(TaskDocument, { slug });
  const [state, setState] = useLeaderboardState();
  // Bumped when a submission of the phase finishes scoring, so the leaderboard picks it up.
  const [scoredRound, setScoredRound] = useState(0);
  if (loading && !data) return <Loading what="the task" />;
  if (error && !data) return <ErrorMessage error={error} onRetry={refetch} title="Could not load the task" />;
  if (!data) return null;
  const task = data.task;
  // Default phase: the one asked for, else the latest with scores, else the last.
  const phase = task.phases.find((p) => p.id === state.phase) ?? [...task.phases].reverse().find((p) => (p.scoredCount ?? 0) > 0) ?? task.phases[task.phases.length - 1];
  return (
    <article>
      <h1>{task.title}</h1>
      <p className="muted">
        {task.kind} · {formatLanguages(task.sourceLang, task.targetLang)} · metrics: {task.metrics.map((m) => m.key).join(', ')}
        {task.combinedWeight !== null && ` · combined NLI weight ${task.combinedWeight}`}
      </p>
      {task.description && <p>{task.description}</p>}
      <p className="small">
        <Link to={`/tasks/${encodeURIComponent(task.slug)}/robustness`}>Metric robustness (adversarial accuracy per phenomenon)</Link>
      </p>
      {task.phases.length === 0 && <Empty>This task has no phases yet.</Empty>}
      {task.phases.length > 0 && phase && (
        <>
          <nav aria-label="Phases" className="tabs">
            {task.phases.map((p) => (
              <button
                key={p.id}
                type="button"
                className="tab"
                aria-pressed={p.id === phase.id}
                onClick={() => setState({ ...state, phase: p.id, metric: null })}
              >
                {p.name} {p.scoredCount !== null && <span className="small muted">({p.scoredCount} scored)</span>}
              </button>
            ))}
          </nav>
          <p className="small">
            Phase <strong>{phase.name}</strong>: {formatDate(phase.opensAt)} – {formatDate(phase.closesAt)} (<span data-testid="phase-lifecycle">{phaseTiming(phase)}</span>);{' '}
            {phase.testSet ? `${phase.testSet.instanceCount} test instances` : 'no test set yet'}; limits {phase.dailyLimit}/day, {phase.totalLimit} in total;{' '}
            <span data-testid="phase-state">{phase.state === 'published' ? 'results published: references and every output are public' : phase.state === 'open-public' ? 'board public, references hidden until the results are published' : 'board hidden until the results are published'}</span>.
          </p>
          {phase.testSet && (
            <p className="small">
              Phase id <code>{phase.id}</code> · test input:{' '}
              <a href={`/api/phases/${encodeURIComponent(phase.id)}/test-input.tsv`} data-testid="task-test-input">
                TSV
              </a>{' '}
              · <a href={`/api/phases/${encodeURIComponent(phase.id)}/test-input.jsonl`}>JSONL</a> · <a href={`/api/phases/${encodeURIComponent(phase.id)}/test-input.txt`}>plain lines</a> ·{' '}
              <Link to="/submit">submit</Link>
            </p>
          )}
          {/* Every output with its manifest: everyone once published, the organisers before (the same rule as the references). */}
          {phase.testSet && phase.referencesVisible && (
            <p className="small" data-testid="bulk-outputs">
              All outputs of this phase with a manifest (submission, team, system, description, primary, baseline, status, scores and signatures):{' '}
              <DownloadLink href={`/api/phases/${encodeURIComponent(phase.id)}/outputs.jsonl`} fileName="outputs.jsonl" testId="bulk-outputs-link">
                outputs.jsonl
              </DownloadLink>
              {phase.state !== 'published' && ' (organisers only until the results are published)'}
            </p>
          )}
          {phase.scoresVisible ? (
            <LeaderboardView phaseId={phase.id} metrics={task.metrics.map((m) => m.key)} state={state} onChange={setState} refreshKey={scoredRound} />
          ) : (
            <Empty>The leaderboard of this phase is hidden until the organisers publish the results.</Empty>
          )}
          <PhaseSubmissions phaseId={phase.id} onScored={() => setScoredRound((n) => n + 1)} />
        </>
      )}
    </article>
  );
}

function PhaseSubmissions({ phaseId, onScored }: { phaseId: string; onScored: () => void }) {
  const [busy, setBusy] = useState(false);
  const { data, error, refetch } = useQuery(PhaseSubmissionsDocument, { phaseId, teamId: null }, { poll: busy, pollMs: 3000 });
  const nowBusy = data?.submissions.some((s) => s.status === 'QUEUED' || s.status === 'SCORING') ?? false;
  useEffect(() => {
    if (busy && !nowBusy) onScored();
    setBusy(nowBusy);
  }, [nowBusy]); // eslint-disable-line react-hooks/exhaustive-deps -- runs on the busy → idle edge only, not when busy or onScored change
  return (
    <section aria-labelledby="subs-heading">
      <h2 id="subs-heading">Submissions</h2>
      {error && <ErrorMessage error={error} onRetry={refetch} title="Could not load the submissions" />}
      {data && <SubmissionList submissions={data.submissions} />}
      {busy && <p className="small muted">Some submissions are still being scored; reload to see them on the leaderboard.</p>}
    </section>
  );
}
