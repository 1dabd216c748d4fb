import { useEffect, useState } from 'react';
import { useLeaderboard } from '../lib/use-leaderboard';
import { effectiveAggregation, methodLabel, topDisagreementNote } from '../lib/leaderboard';
import { Link } from 'wouter';
import { serializeLeaderboardState, type LeaderboardState } from '../lib/url-state';
import { DownloadLink } from './download-link';
import { formatNumber } from '../lib/format';
import { LeaderboardControls, metricLabel } from './leaderboard-controls';
import { testLabel, useSignificanceTests } from '../lib/test-registry';
import { LeaderboardTable } from './leaderboard-table';
import { SignificanceSettings } from './significance-settings';
import { organises, useAuth } from '../lib/auth';
import { Empty, ErrorMessage, Loading } from './status';
import { BoardLinksDocument } from '../graphql/generated';
import { useQuery } from '../lib/graphql-client';

interface Props {
  phaseId: string;
  metrics: readonly string[];
  state: LeaderboardState;
  onChange: (next: LeaderboardState) => void;
  /** Changing it reloads the leaderboard (e.g. after a submission is scored). */
  refreshKey?: number;
}

/** How often the page asks again while the board is being recomputed. */
const UPDATING_POLL_MS = 2000;

/** Query string of the REST leaderboard download, with the same settings as the table. */
function leaderboardQuery(metric: string | null, test: string | null, correction: string | null): string {
  const q = new URLSearchParams();
  if (metric) q.set('metric', metric);
  if (test) q.set('test', test.toLowerCase());
  if (correction) q.set('correction', correction.toLowerCase());
  return `?${q.toString()}`;
}

/** A phase's leaderboard with its selectors, notes and links to the pairwise view and downloads. */
export function LeaderboardView({ phaseId, metrics, state, onChange, refreshKey = 0 }: Props) {
  // While a worker computes the board of the phase's current data, the API answers the previous
  // one marked `updating`: poll until it is current.
  const [updating, setUpdating] = useState(false);
  const tests = useSignificanceTests();
  const { data: board, error, loading, refetch } = useLeaderboard(
    phaseId,
    { metric: state.metric, test: state.test, correction: state.correction },
    { key: String(refreshKey), poll: updating, pollMs: UPDATING_POLL_MS },
  );
  const boardUpdating = board?.updating ?? false;
  useEffect(() => setUpdating(boardUpdating), [boardUpdating]);
  const { me } = useAuth();
  // Links are read apart from the stored board; a refusal or failure leaves the rows without them.
  const linkRows = useQuery(BoardLinksDocument, { phaseId, metric: state.metric ?? null }, { key: `${String(refreshKey)}-${board?.stamp ?? ''}` }).data?.leaderboard.systems;
  const links = new Map((linkRows ?? []).map((r) => [r.submissionId, { paperUrl: r.paperUrl ?? null, codeUrl: r.codeUrl ?? null }]));
  const available = board?.availableMetrics.length ? board.availableMetrics : metrics;
  const note = board ? topDisagreementNote(board.systems, board.methods, board.pairs) : null;
  const aggregation = effectiveAggregation(state.aggregation, board);
  const boardQuery = leaderboardQuery(board?.metric ?? state.metric, state.test, board?.correction ?? state.correction);
  const pairwiseLink = `/phases/${encodeURIComponent(phaseId)}/pairwise${serializeLeaderboardState({ ...state, phase: null, metric: board?.metric ?? state.metric })}`;
  return (
    <section aria-labelledby="leaderboard-heading" className="leaderboard">
      <div className="section-head">
        <h2 id="leaderboard-heading">Leaderboard</h2>
        <div className="actions">
          <Link to={pairwiseLink} className="button-link">
            Pairwise comparison
          </Link>
          <DownloadLink href={`/api/phases/${encodeURIComponent(phaseId)}/leaderboard.csv${boardQuery}`} fileName="leaderboard.csv">
            Leaderboard CSV
          </DownloadLink>
          <DownloadLink href={`/api/phases/${encodeURIComponent(phaseId)}/scores.csv`} fileName="scores.csv">
            Scores CSV
          </DownloadLink>
          <DownloadLink href={`/api/phases/${encodeURIComponent(phaseId)}/scores.jsonl`} fileName="scores.jsonl">
            Scores JSONL
          </DownloadLink>
        </div>
      </div>
      <LeaderboardControls state={state} metrics={available} onChange={onChange} methods={board?.methods ?? []} mainAggregation={board?.mainAggregation} />
      {loading && <Loading what="the leaderboard" />}
      {board?.updating && (
        <p className="note" role="status" data-testid="leaderboard-updating">
          updating… {board.computedAt ? `showing the board computed at ${new Date(board.computedAt).toLocaleString()} while the newest scores are ranked` : 'the first board of this phase is being computed'}
        </p>
      )}
      {error && <ErrorMessage error={error} onRetry={refetch} title="Could not rank the systems" />}
      {board && board.systems.length === 0 && (
        <Empty>
          No ranked systems in this phase yet.{board.notes.length > 0 && ` ${board.notes.join(' ')}`}
        </Empty>
      )}
      {board && board.systems.length > 0 && (
        <>
          {(board.disagreement || note) && (
            <p className="note note-warning" role="note" data-testid="disagreement-note">
              <strong>Aggregations disagree about the top system.</strong> {note ?? board.disagreement}
            </p>
          )}
          {board.significanceWarnings.map((w) => (
            <p key={w} className="note note-warning" role="note" data-testid="significance-warning">
              <strong>Significance cannot be trusted at this size.</strong> {w}
            </p>
          ))}
          {board.btNote && (
            <p className="note" role="note" data-testid="bt-note">
              {board.btNote}
            </p>
          )}
          <LeaderboardTable
            rows={board.systems}
            methods={board.methods}
            aggregation={aggregation}
            higherIsBetter={board.higherIsBetter}
            pairs={board.pairs}
            clusterDefinition={board.clusterDefinition}
            links={links}
          />
          {board.scoredOn && (
            <p className="status status-empty" data-testid="board-scored-on">
              {board.scoredOn.note.charAt(0).toUpperCase() + board.scoredOn.note.slice(1)}
              {board.scoredOn.part === 'public' ? ' — the final ranking, once published, uses the private part.' : '.'}
            </p>
          )}
          <p className="muted small" data-testid="board-tests">
            {metricLabel(board.metric)} on {board.instanceCount} instances; {board.higherIsBetter ? 'higher' : 'lower'} is better. Ranked by{' '}
            {methodLabel(board.methods, aggregation).toLowerCase()}
            {aggregation === board.mainAggregation && ' (the main ranking of this board)'}. Tests behind the clusters
            {state.test ? ` (${testLabel(board.test, tests)} chosen)` : ' (default per aggregation)'}:{' '}
            {board.methods.filter((m) => m.clusters).map((m) => `${m.label} — ${m.testLabel ?? m.test}`).join('; ')}; {board.correction.toLowerCase()} correction,
            α = {board.alpha}. {board.resamples} bootstrap resamples and randomisation trials
            {board.resamplesChosen ? ', chosen so the smallest corrected p can fall well below α' : " (the phase's setting)"} (smallest reachable p{' '}
            {formatNumber(board.smallestReachableP, 4)}), seed {board.seed}. Corpus: <span className="signature">{board.corpusSignature}</span>; sentence scores:{' '}
            <span className="signature">{board.metricSignature}</span>
          </p>
          {organises(me) && (
            <SignificanceSettings
              key={`${board.resamples}-${board.seed}-${board.resamplesChosen}`}
              phaseId={phaseId}
              resamples={board.resamples}
              resamplesChosen={board.resamplesChosen}
              seed={board.seed}
              onSaved={refetch}
            />
          )}
          {board.notes.length > 0 && (
            <ul className="notes">
              {board.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
