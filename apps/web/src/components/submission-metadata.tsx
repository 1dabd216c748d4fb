import { useState, type SyntheticEvent } from 'react';
import { UpdateSubmissionMetadataDocument } from '../graphql/generated';
import { organises, useAuth } from '../lib/auth';
import { ApiError, request } from '../lib/graphql-client';
import { ErrorMessage } from './status';

interface Sub {
  id: string;
  description: string;
  paperUrl?: string | null;
  codeUrl?: string | null;
  team: { id: string };
}

/** An http(s) link as a link; anything else (never stored: the API refuses it) as nothing. */
export function safeHref(url: string | null | undefined): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/**
 * The system's description and its paper and code links, for everyone who sees the submission;
 * its team (and the task's organisers) edit them here.
 */
export function SubmissionMetadata({ sub, onChange }: { sub: Sub; onChange: () => void }) {
  const { me } = useAuth();
  const [editing, setEditing] = useState(false);
  const [description, setDescription] = useState(sub.description);
  const [paperUrl, setPaper] = useState(sub.paperUrl ?? '');
  const [codeUrl, setCode] = useState(sub.codeUrl ?? '');
  const [error, setError] = useState<ApiError | string | null>(null);
  const [busy, setBusy] = useState(false);
  const mayEdit = !!me?.teams.some((t) => t.id === sub.team.id) || organises(me);
  const paper = safeHref(sub.paperUrl);
  const code = safeHref(sub.codeUrl);
  async function save(e: SyntheticEvent) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await request(UpdateSubmissionMetadataDocument, { id: sub.id, description, paperUrl: paperUrl.trim(), codeUrl: codeUrl.trim() });
      setEditing(false);
      onChange();
    } catch (err) {
      setError(err instanceof ApiError ? err : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div data-testid="submission-metadata">
      {sub.description && <p>{sub.description}</p>}
      {(paper || code) && (
        <p className="small">
          {paper && (
            <a href={paper} rel="noopener noreferrer nofollow" target="_blank" data-testid="paper-link">
              Paper
            </a>
          )}
          {paper && code && ' · '}
          {code && (
            <a href={code} rel="noopener noreferrer nofollow" target="_blank" data-testid="code-link">
              Code
            </a>
          )}
        </p>
      )}
      {mayEdit && !editing && (
        <p className="small">
          <button type="button" className="link-button" onClick={() => setEditing(true)}>
            Edit description and links
          </button>
        </p>
      )}
      {mayEdit && editing && (
        <form className="form" onSubmit={(e) => void save(e)} aria-label="Description and links">
          <label>
            Description
            <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} maxLength={5000} />
          </label>
          <label>
            Paper link (http or https; empty for none)
            <input type="url" value={paperUrl} onChange={(e) => setPaper(e.target.value)} maxLength={500} placeholder="https://aclanthology.org/…" />
          </label>
          <label>
            Code link (http or https; empty for none)
            <input type="url" value={codeUrl} onChange={(e) => setCode(e.target.value)} maxLength={500} placeholder="https://github.com/…" />
          </label>
          {error && <ErrorMessage error={error} title="Refused" />}
          <div className="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
