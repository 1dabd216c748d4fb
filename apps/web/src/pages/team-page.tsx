import { useState, type SyntheticEvent } from 'react';
import {
  CreateMyTeamDocument,
  CreateTokenDocument,
  JoinTeamDocument,
  LeaveTeamDocument,
  MyTokensDocument,
  RemoveTeamMemberDocument,
  RevokeTokenDocument,
  RotateInviteCodeDocument,
  TeamDetailsDocument,
  TeamSubmissionsDocument,
} from '../graphql/generated';
import { useAuth } from '../lib/auth';
import { ApiError, request, useQuery } from '../lib/graphql-client';
import { formatDate, formatNumber } from '../lib/format';
import { Link } from 'wouter';
import { Empty, ErrorMessage, Loading } from '../components/status';
import { ColumnHeads } from '../components/column-heads';

/** A team: members (the owner may remove others), the invite code (members may replace it), leaving. */
function TeamCard({ id, myId, onLeft }: { id: string; myId: string; onLeft: () => void }) {
  const team = useQuery(TeamDetailsDocument, { id });
  const [error, setError] = useState<ApiError | string | null>(null);
  if (team.loading && !team.data) return <Loading what="the team" />;
  if (team.error) return <ErrorMessage error={team.error} onRetry={team.refetch} />;
  if (!team.data) return <Loading what="the team" />;
  const t = team.data.team;
  const owner = t.ownerId === myId;
  async function run(action: () => Promise<unknown>, after: () => void) {
    setError(null);
    try {
      await action();
      after();
    } catch (err) {
      setError(err instanceof ApiError ? err : String(err));
    }
  }
  function leave() {
    if (!window.confirm(`Leave team ${t.name}? You need an invite code to join again.`)) return;
    void run(() => request(LeaveTeamDocument, { teamId: t.id }), onLeft);
  }
  function remove(member: { id: string; name: string }) {
    if (!window.confirm(`Remove ${member.name} from team ${t.name}?`)) return;
    void run(() => request(RemoveTeamMemberDocument, { teamId: t.id, userId: member.id }), team.refetch);
  }
  return (
    <section className="card" aria-label={`Team ${t.name}`} data-testid="team-card">
      <h2>{t.name}</h2>
      {error && <ErrorMessage error={error} title="Refused" />}
      {!t.members && <p>Members are shown to the team, the organisers of its tasks and administrators.</p>}
      <ul className="inline-list" data-testid="team-members" aria-label="Members">
        {(t.members ?? []).map((m) => (
          <li key={m.id}>
            {m.name}
            {m.id === t.ownerId && <span className="badge">owner</span>}
            {owner && m.id !== myId && (
              <button type="button" className="link-button" onClick={() => remove(m)} aria-label={`Remove ${m.name}`}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {t.inviteCode && (
        <p>
          Invite code for teammates: <code data-testid="invite-code">{t.inviteCode}</code>{' '}
          <button type="button" className="link-button" onClick={() => void run(() => request(RotateInviteCodeDocument, { teamId: t.id }), team.refetch)}>
            Replace code
          </button>
          <span className="small muted"> (the old code stops working)</span>
        </p>
      )}
      <p>
        <button type="button" className="link-button" onClick={leave}>
          Leave team
        </button>
      </p>
      <TeamSubmissions teamId={t.id} />
      <p className="small muted">
        Submit on the <Link to="/submit">Submit</Link> page or with <code>podium submit</code>.
      </p>
    </section>
  );
}

function TeamSubmissions({ teamId }: { teamId: string }) {
  const subs = useQuery(TeamSubmissionsDocument, { teamId });
  if (subs.error) return <ErrorMessage error={subs.error} onRetry={subs.refetch} />;
  const list = subs.data?.teamSubmissions ?? [];
  if (subs.data && list.length === 0) return <p className="small muted">No submissions yet.</p>;
  return (
    <table className="data-table" data-testid="team-submissions">
      <ColumnHeads columns={['System', 'Task — phase', 'Status', 'Scores', 'Submitted']} />
      <tbody>
        {list.map((s) => (
          <tr key={s.id}>
            <th scope="row">
              <Link to={`/submissions/${encodeURIComponent(s.id)}`}>{s.systemName}</Link>
              {s.isPrimary && <span className="badge badge-open">primary</span>}
              {s.isBaseline && <span className="badge badge-baseline">baseline</span>}
            </th>
            <td>
              {s.phase.task.title} — {s.phase.name}
            </td>
            <td>
              {s.status.toLowerCase()}
              {s.moderation !== 'NONE' && (
                <span className="error-text">
                  {' '}
                  · {s.moderation.toLowerCase()}: {s.moderationReason}
                </span>
              )}
            </td>
            <td data-testid="team-submission-scores">
              {s.corpusScores.length === 0 ? (
                <span className="muted">{s.status === 'SCORED' ? 'not shown' : '–'}</span>
              ) : (
                <>
                  {s.corpusScores.map((c) => `${c.metric} ${formatNumber(c.value)}`).join(' · ')}
                  {s.corpusScores.some((c) => c.part !== 'all') && <span className="small muted"> ({s.corpusScores[0]?.part} part)</span>}
                </>
              )}
            </td>
            <td>{formatDate(s.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Tokens() {
  const tokens = useQuery(MyTokensDocument, {});
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | string | null>(null);
  async function create(e: SyntheticEvent) {
    e.preventDefault();
    setError(null);
    try {
      const r = await request(CreateTokenDocument, { label: label.trim() });
      setCreated(r.createToken.token);
      setLabel('');
      tokens.refetch();
    } catch (err) {
      setError(err instanceof ApiError ? err : String(err));
    }
  }
  async function revoke(id: string) {
    setError(null);
    try {
      await request(RevokeTokenDocument, { id });
      tokens.refetch();
    } catch (err) {
      setError(err instanceof ApiError ? err : String(err));
    }
  }
  return (
    <section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">API tokens</h2>
      <p className="small muted">For scripts and the <code>podium</code> command. Only a hash is stored: copy a new token now, it is shown once.</p>
      {error && <ErrorMessage error={error} title="Refused" />}
      {created && (
        <p className="status status-ok" role="status">
          New token (shown once): <code data-testid="new-token">{created}</code>
        </p>
      )}
      <form className="form inline-form" onSubmit={(e) => void create(e)}>
        <label>
          Name
          <input name="token-label" value={label} onChange={(e) => setLabel(e.target.value)} required maxLength={100} placeholder="laptop" />
        </label>
        <button type="submit">Create token</button>
      </form>
      {tokens.data && tokens.data.myTokens.length === 0 && <Empty>No tokens yet.</Empty>}
      {tokens.data && tokens.data.myTokens.length > 0 && (
        <table className="data-table" data-testid="tokens">
          <ColumnHeads columns={['Name', 'Created', 'Last used', 'State']} />
          <tbody>
            {tokens.data.myTokens.map((t) => (
              <tr key={t.id}>
                <th scope="row">
                  {t.label}
                  {t.issuedBy && <span className="small muted"> (issued for you by {t.issuedBy})</span>}
                </th>
                <td>{formatDate(t.createdAt)}</td>
                <td>{t.lastUsedAt ? formatDate(t.lastUsedAt) : 'never'}</td>
                <td>
                  {t.revokedAt ? (
                    `revoked ${formatDate(t.revokedAt)}`
                  ) : (
                    <button type="button" className="link-button" onClick={() => void revoke(t.id)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Your teams (members, invite code), creating or joining one, and your API tokens. */
export function TeamPage() {
  const { me, signedIn, loading, refresh } = useAuth();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<ApiError | string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [another, setAnother] = useState(false);
  if (loading && !me) return <Loading what="your account" />;
  if (!signedIn || !me) {
    return (
      <section>
        <h1>Team</h1>
        <Empty>
          <Link to="/account">Sign in or register</Link> to create or join a team.
        </Empty>
      </section>
    );
  }
  async function act(e: SyntheticEvent, action: () => Promise<string>) {
    e.preventDefault();
    setError(null);
    setDone(null);
    try {
      setDone(await action());
      setName('');
      setCode('');
      setAnother(false);
      refresh();
    } catch (err) {
      setError(err instanceof ApiError ? err : String(err));
    }
  }
  return (
    <section>
      <h1>Team</h1>
      {error && <ErrorMessage error={error} title="Refused" />}
      {done && (
        <p className="status status-ok" role="status" data-testid="team-done">
          {done}
        </p>
      )}
      {me.teams.length === 0 && <Empty>{me.name} is not in a team yet: create one, or join with the invite code a teammate gives you.</Empty>}
      {me.teams.map((t) => (
        <TeamCard key={t.id} id={t.id} myId={me.id} onLeft={refresh} />
      ))}
      {me.teams.length > 0 && !another && (
        <p className="small">
          <button type="button" className="link-button" onClick={() => setAnother(true)} data-testid="another-team">
            Create or join another team
          </button>
        </p>
      )}
      {(me.teams.length === 0 || another) && (
        <div className="two-columns">
          <form className="form" onSubmit={(e) => void act(e, async () => `You created team ${(await request(CreateMyTeamDocument, { name: name.trim() })).createMyTeam.name}. Give teammates its invite code.`)}>
            <h2>Create a team</h2>
            <label>
              Team name
              <input name="team-name" value={name} onChange={(e) => setName(e.target.value)} required minLength={2} maxLength={100} />
            </label>
            <button type="submit">Create team</button>
          </form>
          <form className="form" onSubmit={(e) => void act(e, async () => `You joined team ${(await request(JoinTeamDocument, { inviteCode: code.trim() })).joinTeam.name}.`)}>
            <h2>Join a team</h2>
            <label>
              Invite code
              <input name="invite-code" value={code} onChange={(e) => setCode(e.target.value)} required />
            </label>
            <button type="submit">Join team</button>
          </form>
        </div>
      )}
      <Tokens />
    </section>
  );
}
