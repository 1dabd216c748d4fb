import { useState, type SyntheticEvent } from 'react';
import { SetPhaseSignificanceDocument } from '../graphql/generated';
import { ApiError, request } from '../lib/graphql-client';

interface Props {
  phaseId: string;
  /** What the board used: resamples and whether they were chosen automatically, and the seed. */
  resamples: number;
  resamplesChosen: boolean;
  seed: number;
  onSaved: () => void;
}

/**
 * Organisers only: the phase's resample count (blank = chosen from the number of pairs, α and
 * correction) and seed. Every leaderboard of the phase is then computed with them, once per setting.
 */
export function SignificanceSettings({ phaseId, resamples, resamplesChosen, seed, onSaved }: Props) {
  const [count, setCount] = useState(resamplesChosen ? '' : String(resamples));
  const [seedText, setSeedText] = useState(String(seed));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  async function save(e: SyntheticEvent) {
    e.preventDefault();
    setError(null);
    const r = count.trim() === '' ? null : Number(count);
    const s = Number(seedText);
    if (r !== null && !(Number.isInteger(r) && r >= 1)) { setError('Resamples must be a whole number ≥ 1, or blank to choose automatically.'); return; }
    if (!Number.isInteger(s) || s < 0) { setError('The seed must be a whole number ≥ 0.'); return; }
    setSaving(true);
    try {
      await request(SetPhaseSignificanceDocument, { phaseId, resamples: r, seed: s });
      onSaved();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }
  return (
    <details className="card" data-testid="significance-settings">
      <summary>Significance settings of this phase (organisers)</summary>
      <form className="controls" onSubmit={(e) => void save(e)} aria-label="Significance settings">
        <label>
          Resamples (blank: automatic)
          <input inputMode="numeric" value={count} onChange={(e) => setCount(e.target.value)} placeholder={resamplesChosen ? `automatic (${resamples})` : ''} />
        </label>
        <label>
          Seed
          <input inputMode="numeric" value={seedText} onChange={(e) => setSeedText(e.target.value)} />
        </label>
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </form>
      {error && (
        <p className="note note-warning" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}
