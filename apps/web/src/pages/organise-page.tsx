import { useState, type FormEvent, type ReactNode } from 'react';
import {
  CreatePhaseDocument,
  CreateTaskDocument,
  CreateTeamDocument,
  IssueTokenDocument,
  MetricsDocument,
  RescoreDocument,
  TasksDocument,
  UploadTestSetDocument,
  type TasksQuery,
} from '../graphql/generated';
import { useAuth } from '../lib/auth';
import { ApiError, request, useQuery } from '../lib/graphql-client';
import { parseTestSet } from '../lib/test-set';
import { Empty, ErrorMessage, Loading } from '../components/status';

const KINDS = ['mt', 'summarization', 'data-to-text', 'other'] as const;

type Outcome = { kind: 'ok'; text: ReactNode } | { kind: 'error'; error: ApiError | string } | null;

function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  async function run(action: () => Promise<ReactNode>) {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ kind: 'ok', text: await action() });
    } catch (e) {
      setOutcome({ kind: 'error', error: e instanceof ApiError ? e : e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  }
  return { busy, outcome, run };
}

function Result({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  if (outcome.kind === 'error') {
    const line = typeof outcome.error === 'string' ? null : outcome.error.details[0]?.line;
    return <ErrorMessage error={outcome.error} title={line ? `Refused at line ${line}` : 'Refused'} />;
  }
  return (
    <p className="status status-ok" role="status">
      {outcome.text}
    </p>
  );
}

type Phases = { id: string; label: string }[];

function phasesOf(tasks: TasksQuery['tasks']): Phases {
  return tasks.flatMap((t) => t.phases.map((p) => ({ id: p.id, label: `${t.title} — ${p.name}` })));
}

function CreateTaskForm({ onDone }: { onDone: () => void }) {
  const { busy, outcome, run } = useAction();
  const [slug, setSlug] = useState('');
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState<string>('mt');
  const [sourceLang, setSource] = useState('');
  const [targetLang, setTarget] = useState('');
  const [description, setDescription] = useState('');
  const [metrics, setMetrics] = useState<string[]>(['bleu', 'chrf']);
  const [weight, setWeight] = useState('');
  const registry = useQuery(MetricsDocument, {});
  const configurable = (registry.data?.metrics ?? []).filter((m) => m.configurable);
  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const w = weight.trim() === '' ? null : Number(weight);
      const r = await request(CreateTaskDocument, {
        input: { slug, title, kind, sourceLang, targetLang, description, metrics: metrics.map((m) => ({ key: m, name: m })), combinedWeight: w },
      });
      onDone();
      return `Created task ${r.createTask.slug}.`;
    });
  }
  const toggle = (m: string) => setMetrics((ms) => (ms.includes(m) ? ms.filter((x) => x !== m) : [...ms, m]));
  return (
    <form className="form" onSubmit={submit} aria-labelledby="create-task">
      <h2 id="create-task">Create a task</h2>
      <label>
        Slug (URL name)
        <input value={slug} onChange={(e) => setSlug(e.target.value)} required pattern="[a-z0-9][a-z0-9\-]{1,62}" title="lower-case letters, digits and hyphens" />
      </label>
      <label>
        Title
        <input value={title} onChange={(e) => setTitle(e.target.value)} required />
      </label>
      <label>
        Kind
        <select value={kind} onChange={(e) => setKind(e.target.value)}>
          {KINDS.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
      </label>
      <div className="row">
        <label>
          Source language
          <input value={sourceLang} onChange={(e) => setSource(e.target.value)} required size={6} placeholder="de" />
        </label>
        <label>
          Target language
          <input value={targetLang} onChange={(e) => setTarget(e.target.value)} required size={6} placeholder="en" />
        </label>
      </div>
      <label>
        Description
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={2} />
      </label>
      <fieldset>
        <legend>Metrics (the first checked is the primary)</legend>
        {configurable.map((m) => (
          <label key={m.name} className="check">
            <input type="checkbox" checked={metrics.includes(m.name)} onChange={() => toggle(m.name)} /> {m.displayName}
          </label>
        ))}
      </fieldset>
      <label>
        Combined metric weight w (NLI share, 0–1; empty for none)
        <input type="number" min={0} max={1} step={0.05} value={weight} onChange={(e) => setWeight(e.target.value)} />
      </label>
      <button type="submit" disabled={busy || metrics.length === 0}>
        {busy ? 'Creating…' : 'Create task'}
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

/** `datetime-local` value for a date, in local time. */
function localInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function CreatePhaseForm({ tasks, onDone }: { tasks: TasksQuery['tasks']; onDone: () => void }) {
  const { busy, outcome, run } = useAction();
  const [taskSlug, setTaskSlug] = useState(tasks[0]?.slug ?? '');
  const [name, setName] = useState('');
  const [opensAt, setOpens] = useState(() => localInput(new Date()));
  const [closesAt, setCloses] = useState(() => localInput(new Date(Date.now() + 30 * 86_400_000)));
  const [dailyLimit, setDaily] = useState(5);
  const [totalLimit, setTotal] = useState(20);
  const [visible, setVisible] = useState(true);
  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const r = await request(CreatePhaseDocument, {
        input: { taskSlug, name, opensAt: new Date(opensAt).toISOString(), closesAt: new Date(closesAt).toISOString(), dailyLimit, totalLimit, leaderboardBeforeClose: visible },
      });
      onDone();
      return `Created phase ${r.createPhase.name}.`;
    });
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby="create-phase">
      <h2 id="create-phase">Add a phase</h2>
      <label>
        Task
        <select value={taskSlug} onChange={(e) => setTaskSlug(e.target.value)} required>
          {tasks.map((t) => (
            <option key={t.slug} value={t.slug}>
              {t.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required placeholder="test" />
      </label>
      <div className="row">
        <label>
          Opens
          <input type="datetime-local" value={opensAt} onChange={(e) => setOpens(e.target.value)} required />
        </label>
        <label>
          Closes
          <input type="datetime-local" value={closesAt} onChange={(e) => setCloses(e.target.value)} required />
        </label>
      </div>
      <div className="row">
        <label>
          Per day
          <input type="number" min={1} value={dailyLimit} onChange={(e) => setDaily(Number(e.target.value))} required />
        </label>
        <label>
          In total
          <input type="number" min={1} value={totalLimit} onChange={(e) => setTotal(Number(e.target.value))} required />
        </label>
      </div>
      <label className="check">
        <input type="checkbox" checked={visible} onChange={(e) => setVisible(e.target.checked)} /> Show the leaderboard while the phase is open
      </label>
      <button type="submit" disabled={busy || !taskSlug}>
        {busy ? 'Adding…' : 'Add phase'}
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

function UploadTestSetForm({ phases, onDone }: { phases: Phases; onDone: () => void }) {
  const { busy, outcome, run } = useAction();
  const [phaseId, setPhaseId] = useState(phases[0]?.id ?? '');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    void run(async () => {
      const parsed = parseTestSet(await file.text());
      if (!parsed.ok) throw new ApiError(`line ${parsed.line}: ${parsed.message}`, [{ message: parsed.message, code: 'INVALID_INPUT', field: 'file', line: parsed.line }]);
      const r = await request(UploadTestSetDocument, { phaseId, name: name || file.name, instances: parsed.instances });
      onDone();
      return `Uploaded ${r.uploadTestSet.name}: ${r.uploadTestSet.instanceCount} instances (sha256 ${r.uploadTestSet.checksum.slice(0, 12)}…).`;
    });
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby="upload-testset">
      <h2 id="upload-testset">Upload a test set</h2>
      <p className="small muted">
        JSONL, one <code>{'{"id": …, "source": …, "references": [...]}'}</code> per line; only a phase without submissions takes a new test set.
      </p>
      <label>
        Phase
        <select value={phaseId} onChange={(e) => setPhaseId(e.target.value)} required>
          {phases.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="newstest2026" />
      </label>
      <label>
        File
        <input type="file" accept=".jsonl,.json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} required />
      </label>
      <button type="submit" disabled={busy || !file || !phaseId}>
        {busy ? 'Uploading…' : 'Upload test set'}
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

function TeamForm() {
  const { busy, outcome, run } = useAction();
  const [team, setTeam] = useState('');
  const [member, setMember] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const members = member.trim() ? [member.trim()] : [];
      const t = await request(CreateTeamDocument, { name: team, members });
      if (!members[0]) return `Created team ${t.createTeam.name}.`;
      const token = await request(IssueTokenDocument, { userName: members[0], label: `web: ${t.createTeam.name}` });
      return (
        <>
          Created team {t.createTeam.name}. Token for {members[0]} (shown only now): <code className="token">{token.issueToken}</code>
        </>
      );
    });
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby="teams">
      <h2 id="teams">Create a team</h2>
      <label>
        Team name
        <input value={team} onChange={(e) => setTeam(e.target.value)} required />
      </label>
      <label>
        Member (gets a token)
        <input value={member} onChange={(e) => setMember(e.target.value)} placeholder="user name" />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create team'}
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

function RescoreForm({ phases }: { phases: Phases }) {
  const { busy, outcome, run } = useAction();
  const [phaseId, setPhaseId] = useState(phases[0]?.id ?? '');
  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const n = (await request(RescoreDocument, { phaseId })).rescore;
      return `Queued ${n} submission${n === 1 ? '' : 's'} for scoring again.`;
    });
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby="rescore">
      <h2 id="rescore">Rescore a phase</h2>
      <p className="small muted">Scores every submission again with the task's current metrics (e.g. after adding NLI or changing the combined weight).</p>
      <label>
        Phase
        <select value={phaseId} onChange={(e) => setPhaseId(e.target.value)} required>
          {phases.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy || !phaseId}>
        {busy ? 'Queuing…' : 'Rescore'}
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

export function OrganisePage() {
  const { token, me, loading } = useAuth();
  const tasks = useQuery(TasksDocument, {});
  if (!token) {
    return (
      <section>
        <h1>Organise</h1>
        <Empty>Sign in with an organiser token (top right) to create tasks and phases.</Empty>
      </section>
    );
  }
  if (loading) return <Loading what="your account" />;
  if (me?.role !== 'ORGANISER') {
    return (
      <section>
        <h1>Organise</h1>
        <ErrorMessage error={me ? `${me.name} is a participant; organising needs an organiser token.` : 'The token was not accepted.'} title="Not allowed" />
      </section>
    );
  }
  const list = tasks.data?.tasks ?? [];
  const phases = phasesOf(list);
  return (
    <section>
      <h1>Organise</h1>
      {tasks.error && <ErrorMessage error={tasks.error} onRetry={tasks.refetch} />}
      <div className="form-grid">
        <CreateTaskForm onDone={tasks.refetch} />
        {list.length > 0 && <CreatePhaseForm key={list.length} tasks={list} onDone={tasks.refetch} />}
        {phases.length > 0 && <UploadTestSetForm key={`u${phases.length}`} phases={phases} onDone={tasks.refetch} />}
        {phases.length > 0 && <RescoreForm key={`r${phases.length}`} phases={phases} />}
        <TeamForm />
      </div>
    </section>
  );
}
