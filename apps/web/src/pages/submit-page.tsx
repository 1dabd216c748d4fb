import { useEffect, useMemo, useState, type SyntheticEvent } from 'react';
import { QuotaDocument, RegisterTeamDocument, TasksDocument } from '../graphql/generated';
import { useAuth } from '../lib/auth';
import { ApiError, request, useQuery } from '../lib/graphql-client';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { uploadSubmission } from '../lib/upload';
import { Empty, ErrorMessage, Loading } from '../components/status';
import { SubmitCommands } from '../components/submit-commands';
import { formatDate } from '../lib/format';

export function SubmitPage() {
  const { signedIn, me, loading: meLoading } = useAuth();
  const tasks = useQuery(TasksDocument, {});
  // Newest first: the form starts on the phase that opened last, not on the demo phase.
  const open = (tasks.data?.tasks ?? [])
    .flatMap((t) => t.phases.filter((p) => p.isOpen).map((p) => ({ task: t, phase: p })))
    .sort((a, b) => Date.parse(b.phase.opensAt) - Date.parse(a.phase.opensAt));
  const [phaseId, setPhaseId] = useState('');
  const [teamId, setTeamId] = useState('');
  const [systemName, setSystemName] = useState('');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const teams = useMemo(() => me?.teams ?? [], [me]);
  useEffect(() => {
    if (!phaseId && open[0]) setPhaseId(open[0].phase.id);
  }, [open, phaseId]);
  useEffect(() => {
    if (!teamId && teams[0]) setTeamId(teams[0].id);
  }, [teams, teamId]);
  const [registration, setRegistration] = useState<string | null>(null);
  const chosenTask = open.find((o) => o.phase.id === phaseId)?.task;
  async function registerTeam() {
    if (!chosenTask) return;
    try {
      const r = await request(RegisterTeamDocument, { taskSlug: chosenTask.slug, teamId });
      setRegistration(r.registerTeam.status === 'APPROVED' ? 'Your team is registered for this task.' : 'Registration requested; an organiser has to approve it.');
    } catch (e) {
      setRegistration(e instanceof Error ? e.message : String(e));
    }
  }
  const quota = useQuery(QuotaDocument, { phaseId, teamId }, { skip: !phaseId || !teamId });

  if (!signedIn && !meLoading) {
    return (
      <section>
        <h1>Submit</h1>
        <Empty>
          <Link to="/account">Sign in or register</Link> (or use an API token, top right) to submit system outputs.
        </Empty>
      </section>
    );
  }
  // Only before the first answers: a reload later (after registering, or a mutation that returned a
  // team) keeps the form mounted with the system name and the file chosen.
  if ((meLoading && !me) || (tasks.loading && !tasks.data)) return <Loading what="your teams and the open phases" />;
  if (tasks.error) return <ErrorMessage error={tasks.error} onRetry={tasks.refetch} />;
  if (!me) return <ErrorMessage error="The token was not accepted. Sign out and try another." />;

  async function submit(e: SyntheticEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(null); // an old refusal goes the moment the next upload starts
    try {
      const res = await uploadSubmission({ phaseId, teamId, systemName: systemName.trim(), description, file, fileName: file.name });
      navigate(`/submissions/${encodeURIComponent(res.submissionId)}`);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(String(err), []));
      quota.refetch();
    } finally {
      setBusy(false);
    }
  }
  const q = quota.data?.quota;
  // One bad line: "refused at line 4: <why>"; several: the API names each itself.
  const pointer = error?.details[0]?.line ?? null;
  const line = pointer !== null && error?.message.startsWith(`line ${pointer}`) ? pointer : null;
  return (
    <section>
      <h1>Submit</h1>
      {teams.length === 0 && (
        <Empty>
          {me.name} is not in a team yet: create or join one on the <Link to="/team">team page</Link>.
        </Empty>
      )}
      {open.length === 0 && <Empty>No phase is open for submissions right now.</Empty>}
      {teams.length > 0 && open.length > 0 && (
        <form className="form" onSubmit={(e) => void submit(e)} aria-describedby="submit-help">
          <p id="submit-help" className="small muted">
            JSONL with one <code>{'{"id": …, "output": …}'}</code> object per line, or plain text with one output per line in test-set order.
          </p>
          <label>
            Phase
            <select value={phaseId} onChange={(e) => setPhaseId(e.target.value)} required data-testid="submit-phase">
              {open.map(({ task, phase }) => (
                <option key={phase.id} value={phase.id}>
                  {task.title} — {phase.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Team
            <select value={teamId} onChange={(e) => setTeamId(e.target.value)} required>
              {teams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          {chosenTask?.registration === 'APPROVAL' && (
            <p className="small">
              This task needs an organiser's approval of your team.{' '}
              <button type="button" className="link-button" onClick={() => void registerTeam()}>
                Request registration
              </button>{' '}
              {registration}
            </p>
          )}
          <div className="quota" aria-live="polite" data-testid="quota">
            {quota.loading && !q && 'Checking your remaining submissions…'}
            {quota.error && <span className="error-text">Could not read your quota: {quota.error.message}</span>}
            {q && (
              <>
                <strong>{q.remaining}</strong> submission{q.remaining === 1 ? '' : 's'} left in the next 24 hours ({q.usedToday} of {q.dailyLimit} used today; {q.usedTotal} of{' '}
                {q.totalLimit} in total).
                {q.remaining <= 0 && (
                  <span data-testid="next-slot">
                    {' '}
                    {q.nextSlotAt ? `The next submission slot opens at ${formatDate(q.nextSlotAt)}.` : q.usedTotal >= q.totalLimit ? 'Your team has used every submission of this phase.' : ''}
                  </span>
                )}
              </>
            )}
          </div>
          <label>
            System name
            <input value={systemName} onChange={(e) => setSystemName(e.target.value)} required maxLength={100} name="systemName" />
          </label>
          <label>
            Description (optional)
            <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={2} />
          </label>
          <label>
            Outputs file
            <input type="file" accept=".jsonl,.txt,.json,text/plain" onChange={(e) => setFile(e.target.files?.[0] ?? null)} required name="file" />
          </label>
          {error && (
            <div className="status status-error" role="alert" data-testid="submit-error">
              <strong>The file was refused{line !== null ? ` at line ${line}` : ''}:</strong> {line !== null ? error.message.replace(/^line \d+:?\s*/, '') : error.message}
            </div>
          )}
          <button type="submit" disabled={busy || !file || !systemName.trim() || (q !== undefined && q.remaining <= 0)}>
            {busy ? 'Uploading…' : 'Submit'}
          </button>
        </form>
      )}
      {teams.length > 0 && phaseId && <SubmitCommands phaseId={phaseId} teamId={teamId} systemName={systemName} />}
      <p className="small">
        <Link to="/">Back to the tasks</Link>
      </p>
    </section>
  );
}
