import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { Link } from 'wouter';
import type { TasksQuery } from '../graphql/generated';
import { ApiError } from '../lib/graphql-client';
import { importTaskBundle } from '../lib/upload';
import { DownloadLink } from './download-link';
import { ErrorMessage } from './status';

/**
 * Task bundles on the organise page (issue #22): export a task as one JSON file (settings,
 * metrics, phases, test sets with references; submissions with outputs when ticked), and import
 * such a file as a new task here (the api checks it whole and writes it in one transaction).
 */
export function TaskBundleForm({ tasks, onDone }: { tasks: TasksQuery['tasks']; onDone: () => void }) {
  // The chosen task, or the newest while none is chosen (the form stays mounted as the list
  // grows, so an import's outcome stays on screen after the tasks are reloaded).
  const [chosen, setSlug] = useState('');
  const slug = tasks.some((t) => t.slug === chosen) ? chosen : (tasks[tasks.length - 1]?.slug ?? '');
  const [withSubmissions, setWithSubmissions] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [newSlug, setNewSlug] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: ReactNode } | { error: ApiError | string } | null>(null);
  const href = `/api/tasks/${encodeURIComponent(slug)}/bundle.json${withSubmissions ? '?submissions=1' : ''}`;

  function submit(e: SyntheticEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setOutcome(null);
    void (async () => {
      try {
        const r = await importTaskBundle(await file.text(), newSlug.trim());
        onDone();
        const teams = r.teamsCreated.length > 0 ? ` Teams created (no members yet): ${r.teamsCreated.join(', ')}.` : '';
        setOutcome({
          ok: (
            <>
              Imported task <Link to={`/tasks/${encodeURIComponent(r.slug)}`}>{r.slug}</Link> with {r.phases.length} {r.phases.length === 1 ? 'phase' : 'phases'}; {r.submissions}{' '}
              {r.submissions === 1 ? 'submission is' : 'submissions are'} queued for scoring here.{teams}
            </>
          ),
        });
      } catch (err) {
        setOutcome({ error: err instanceof ApiError ? err : err instanceof Error ? err.message : String(err) });
      } finally {
        setBusy(false);
      }
    })();
  }

  return (
    <section aria-labelledby="bundle-heading" className="form">
      <h2 id="bundle-heading">Task bundles</h2>
      <p className="small muted">
        One file with a task&apos;s settings, metrics, phases and test sets <strong>with their references</strong> — keep it private. Import it into another Podium to run the
        task there; scores are not in the file, the importing Podium scores the outputs itself.
      </p>
      {tasks.length > 0 && (
        <div className="bundle-export">
          <label>
            Task
            <select value={slug} onChange={(e) => setSlug(e.target.value)}>
              {tasks.map((t) => (
                <option key={t.id} value={t.slug}>
                  {t.title} ({t.slug})
                </option>
              ))}
            </select>
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={withSubmissions} onChange={(e) => setWithSubmissions(e.target.checked)} />
            Include submissions with their outputs
          </label>
          <DownloadLink href={href} fileName={`${slug}.podium-task.json`} testId="export-bundle">
            Export bundle
          </DownloadLink>
        </div>
      )}
      <form onSubmit={submit} aria-label="Import a task bundle">
        <label>
          Bundle file
          <input type="file" accept=".json,application/json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} required />
        </label>
        <label>
          Slug here (optional)
          <input value={newSlug} onChange={(e) => setNewSlug(e.target.value)} placeholder="the bundle's own slug" pattern="[a-z0-9][a-z0-9\-]{1,62}" />
        </label>
        <button type="submit" disabled={busy || !file}>
          {busy ? 'Importing…' : 'Import bundle'}
        </button>
      </form>
      {outcome && 'error' in outcome && <ErrorMessage error={outcome.error} title="Refused" />}
      {outcome && 'ok' in outcome && (
        <p className="status status-ok" role="status">
          {outcome.ok}
        </p>
      )}
    </section>
  );
}
