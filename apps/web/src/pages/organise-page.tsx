import { useState, type ReactNode, type SyntheticEvent } from 'react';
import {
  CreatePhaseDocument,
  CreateTaskDocument,
  CreateTeamDocument,
  IssueTokenDocument,
  MetricsDocument,
  ApproveRegistrationDocument,
  AuditLogDocument,
  RegistrationsDocument,
  UpdateTaskRegistrationDocument,
  ClosePhaseDocument,
  PublishPhaseDocument,
  UpdatePhaseDocument,
  UpdateTaskDocument,
  PhaseImpactDocument,
  SetPhaseSignificanceSettingsDocument,
  RescorePhaseDocument,
  TaskKindsDocument,
  TasksDocument,
  UploadTestSetDocument,
  type TasksQuery,
  type UpdatePhaseInput,
} from '../graphql/generated';
import { organises, useAuth } from '../lib/auth';
import { ApiError, request, useQuery } from '../lib/graphql-client';
import { describeProblems, parseTestSet } from '../lib/test-set';
import { closeConsequence, publishConsequence, rescoreConsequence } from '../lib/consequences';
import { ConfirmAction } from '../components/confirm-action';
import { formatDate, LIFECYCLE_BADGE, phaseTiming } from '../lib/format';
import { MetricChoice } from '../components/metric-choice';
import { Empty, ErrorMessage, Loading } from '../components/status';
import { ColumnHeads } from '../components/column-heads';
import { TaskBundleForm } from '../components/task-bundle-form';
import { useEdit } from '../lib/use-edit';

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

type Action = ReturnType<typeof useAction>;

function Result({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  // The message names its lines itself ("Line 2: …"): the title does not repeat them.
  if (outcome.kind === 'error') return <ErrorMessage error={outcome.error} title="Refused" />;
  return (
    <p className="status status-ok" role="status">
      {outcome.text}
    </p>
  );
}

type Phases = { id: string; label: string; lifecycleState: string; opensAt: string }[];

function phasesOf(tasks: TasksQuery['tasks']): Phases {
  return tasks.flatMap((t) =>
    t.phases.map((p) => ({ id: p.id, label: `${t.title} — ${p.name} (${LIFECYCLE_BADGE[p.lifecycleState] ?? p.lifecycleState})`, lifecycleState: p.lifecycleState, opensAt: p.opensAt })),
  );
}

/**
 * The phase a form starts on: the newest (latest opening) phase that is open or not yet open,
 * e.g. the one just created; else the newest phase. Never simply the first (the demo phase).
 */
export function preferredPhaseId(phases: readonly { id: string; lifecycleState: string; opensAt: string }[]): string {
  const newest = (list: readonly { id: string; opensAt: string }[]) => [...list].sort((a, b) => Date.parse(b.opensAt) - Date.parse(a.opensAt))[0]?.id;
  return newest(phases.filter((p) => p.lifecycleState === 'OPEN' || p.lifecycleState === 'SCHEDULED')) ?? newest(phases) ?? '';
}

function CreateTaskForm({ onDone }: { onDone: () => void }) {
  const { busy, outcome, run } = useAction();
  const [slug, setSlug] = useState('');
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState<string>('mt');
  const [sourceLang, setSource] = useState('');
  const [targetLang, setTarget] = useState('');
  const [description, setDescription] = useState('');
  // null: the chosen kind's default metrics (from the API), until the organiser changes them.
  const [chosenMetrics, setMetrics] = useState<string[] | null>(null);
  const [weight, setWeight] = useState('');
  const registry = useQuery(MetricsDocument, {});
  const kinds = useQuery(TaskKindsDocument, {}).data?.taskKinds ?? [];
  const metrics = chosenMetrics ?? kinds.find((k) => k.name === kind)?.defaultMetrics ?? [];
  function submit(e: SyntheticEvent) {
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
        <select
          value={kind}
          onChange={(e) => {
            setKind(e.target.value);
            setMetrics(null);
          }}
        >
          {kinds.map((k) => (
            <option key={k.name} value={k.name}>
              {k.displayName}
            </option>
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
      <MetricChoice legend="Metrics (the first checked is the primary)" metrics={registry.data?.metrics ?? []} chosen={metrics} onChange={setMetrics} />
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

/** The task a form acts on: one labelled, required choice among `tasks`, by slug. */
function TaskSelect({ tasks, value, onChange }: { tasks: TasksQuery['tasks']; value: string; onChange: (slug: string) => void }) {
  return (
    <label>
      Task
      <select value={value} onChange={(e) => onChange(e.target.value)} required>
        {tasks.map((t) => (
          <option key={t.slug} value={t.slug}>
            {t.title}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The phase a form acts on: one labelled, required choice among `phases`, by id. */
function PhaseSelect({ phases, value, onChange }: { phases: Phases; value: string; onChange: (id: string) => void }) {
  return (
    <label>
      Phase
      <select value={value} onChange={(e) => onChange(e.target.value)} required>
        {phases.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** `datetime-local` value for a date, in local time. */
function localInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function CreatePhaseForm({ tasks, onDone }: { tasks: TasksQuery['tasks']; onDone: () => void }) {
  const { busy, outcome, run } = useAction();
  // The newest task (the list is in creation order): the one just created.
  const [taskSlug, setTaskSlug] = useState(tasks[tasks.length - 1]?.slug ?? '');
  const [name, setName] = useState('');
  const [opensAt, setOpens] = useState(() => localInput(new Date()));
  const [closesAt, setCloses] = useState(() => localInput(new Date(Date.now() + 30 * 86_400_000)));
  const [dailyLimit, setDaily] = useState(5);
  const [totalLimit, setTotal] = useState(20);
  const [visible, setVisible] = useState(true);
  const [teamInstanceScores, setTeamInstanceScores] = useState(false);
  function submit(e: SyntheticEvent) {
    e.preventDefault();
    void run(async () => {
      const r = await request(CreatePhaseDocument, {
        input: { taskSlug, name, opensAt: new Date(opensAt).toISOString(), closesAt: new Date(closesAt).toISOString(), dailyLimit, totalLimit, leaderboardBeforeClose: visible, teamInstanceScores },
      });
      onDone();
      return `Created phase ${r.createPhase.name}.`;
    });
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby="create-phase">
      <h2 id="create-phase">Add a phase</h2>
      <TaskSelect tasks={tasks} value={taskSlug} onChange={setTaskSlug} />
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
      <label className="check">
        <input type="checkbox" checked={teamInstanceScores} onChange={(e) => setTeamInstanceScores(e.target.checked)} data-testid="create-team-instance-scores" /> Teams see per-instance scores of
        their own submissions before publishing (off: corpus scores only; per-instance scores reveal the references)
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
  const [phaseId, setPhaseId] = useState(() => preferredPhaseId(phases));
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  function submit(e: SyntheticEvent) {
    e.preventDefault();
    if (!file) return;
    void run(async () => {
      const parsed = parseTestSet(await file.text());
      if (!parsed.ok) {
        throw new ApiError(
          `${parsed.problems.length + parsed.more === 1 ? 'One line is' : `${parsed.problems.length + parsed.more} lines are`} not a test instance. ${describeProblems(parsed.problems, parsed.more)}`,
          [{ message: parsed.message, code: 'INVALID_INPUT', field: 'file', line: parsed.line }],
        );
      }
      const r = await request(UploadTestSetDocument, { phaseId, name: name || file.name, instances: parsed.instances });
      onDone();
      return `Uploaded ${r.uploadTestSet.name}: ${r.uploadTestSet.instanceCount} instances ${r.uploadTestSet.checksum ? ` (sha256 ${r.uploadTestSet.checksum.slice(0, 12)}…)` : ''}; its commitment is published now, its salt when you publish the results.`;
    });
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby="upload-testset">
      <h2 id="upload-testset">Upload a test set</h2>
      <p className="small muted">
        JSONL, one <code>{'{"id": …, "source": …, "references": [...]}'}</code> per line; only a phase without submissions takes a new test set.
      </p>
      <PhaseSelect phases={phases} value={phaseId} onChange={setPhaseId} />
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
  function submit(e: SyntheticEvent) {
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
  const [phaseId, setPhaseId] = useState(() => preferredPhaseId(phases));
  const phase = phases.find((p) => p.id === phaseId);
  return (
    <div className="form" role="group" aria-labelledby="rescore">
      <h2 id="rescore">Rescore a phase</h2>
      <p className="small muted">
        Scores every submission again with the task's current metrics (e.g. after a metric fix); the replaced scores and their signatures stay in each submission's history.
      </p>
      <PhaseSelect phases={phases} value={phaseId} onChange={setPhaseId} />
      <div className="actions">
        <ConfirmAction
          label={busy ? 'Queuing…' : 'Rescore…'}
          testId="rescore"
          disabled={busy || !phaseId}
          confirmLabel="Score them again"
          consequence={async () => rescoreConsequence({ name: phase?.label ?? 'the phase' }, (await request(PhaseImpactDocument, { id: phaseId })).phaseImpact)}
          onConfirm={() =>
            void run(async () => {
              const n = (await request(RescorePhaseDocument, { phaseId })).rescorePhase;
              return `Queued ${n} submission${n === 1 ? '' : 's'} for scoring again.`;
            })
          }
        />
      </div>
      <Result outcome={outcome} />
    </div>
  );
}

const STATE_LABEL: Record<string, string> = {
  'open-hidden': 'open, board hidden',
  'open-public': 'board public',
  'closed-unpublished': 'closed, not published',
  published: 'published',
};

/** Edits a task's title and description, and its metrics until the first submission (the API refuses later). */
function EditTaskForm({ tasks, onDone }: { tasks: TasksQuery['tasks']; onDone: () => void }) {
  const { busy, outcome, run } = useAction();
  const [slug, setSlug] = useState(tasks[0]?.slug ?? '');
  const [title, setTitle] = useState('');
  const [metrics, setMetrics] = useState<string[]>([]);
  const registry = useQuery(MetricsDocument, {});
  function submit(e: SyntheticEvent) {
    e.preventDefault();
    void run(async () => {
      const input = {
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(metrics.length > 0 ? { metrics: metrics.map((m) => ({ key: m, name: m })) } : {}),
      };
      await request(UpdateTaskDocument, { slug, input });
      onDone();
      return `Updated ${slug}.`;
    });
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby="edit-task">
      <h2 id="edit-task">Edit a task</h2>
      <p className="small muted">Fields left empty stay as they are. Metrics can change only before the task's first submission; after it, re-score instead.</p>
      <TaskSelect tasks={tasks} value={slug} onChange={setSlug} />
      <label>
        New title
        <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
      </label>
      <MetricChoice legend="New metrics" metrics={registry.data?.metrics ?? []} chosen={metrics} onChange={setMetrics} />
      <button type="submit" disabled={busy || !slug || (!title.trim() && metrics.length === 0)}>
        Save task
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

type PhaseRow = TasksQuery['tasks'][number]['phases'][number];

/**
 * Every setting of one phase the state machine still allows (ADR 0013): dates and limits while
 * it is scheduled or open, the name and the public flag until it is published; and the
 * leaderboard's significance settings. Only changed fields are sent.
 */
function PhaseSettingsForm({ tasks, onDone }: { tasks: TasksQuery['tasks']; onDone: () => void }) {
  const all = tasks.flatMap((t) => t.phases.map((p) => ({ ...p, label: `${t.title} — ${p.name} (${LIFECYCLE_BADGE[p.lifecycleState] ?? p.lifecycleState})` })));
  const [phaseId, setPhaseId] = useState(() => preferredPhaseId(all));
  const phase = all.find((p) => p.id === phaseId);
  // The form is keyed on the phase alone: a reload of the tasks (after any action on this page, or
  // a submission scored) keeps what the organiser is typing; each field follows its stored value
  // once that changes (useEdit). The outcome lives here, so another phase's form starts without it.
  const action = useAction();
  return (
    <section aria-labelledby="phase-settings-heading">
      <h2 id="phase-settings-heading">Phase settings</h2>
      <PhaseSelect phases={all} value={phaseId} onChange={setPhaseId} />
      {phase && <PhaseSettings key={phase.id} phase={phase} action={action} onDone={onDone} />}
    </section>
  );
}

function PhaseSettings({ phase, action, onDone }: { phase: PhaseRow; action: Action; onDone: () => void }) {
  const { busy, outcome, run } = action;
  const schedule = phase.lifecycleState === 'OPEN' || phase.lifecycleState === 'SCHEDULED';
  const details = phase.lifecycleState !== 'PUBLISHED';
  const [name, setName] = useEdit(phase.name);
  const [opensAt, setOpens] = useEdit(localInput(new Date(phase.opensAt)));
  const [closesAt, setCloses] = useEdit(localInput(new Date(phase.closesAt)));
  const [dailyLimit, setDaily] = useEdit(String(phase.dailyLimit));
  const [totalLimit, setTotal] = useEdit(String(phase.totalLimit));
  const [visible, setVisible] = useEdit(phase.leaderboardBeforeClose);
  const [resamples, setResamples] = useEdit(phase.significanceResamples === null ? '' : String(phase.significanceResamples));
  const [seed, setSeed] = useEdit(String(phase.significanceSeed));
  function submit(e: SyntheticEvent) {
    e.preventDefault();
    void run(async () => {
      const input: UpdatePhaseInput = {};
      if (details && name.trim() !== phase.name) input.name = name.trim();
      if (details && visible !== phase.leaderboardBeforeClose) input.leaderboardBeforeClose = visible;
      if (schedule) {
        if (opensAt !== localInput(new Date(phase.opensAt))) input.opensAt = new Date(opensAt).toISOString();
        if (closesAt !== localInput(new Date(phase.closesAt))) input.closesAt = new Date(closesAt).toISOString();
        if (Number(dailyLimit) !== phase.dailyLimit) input.dailyLimit = Number(dailyLimit);
        if (Number(totalLimit) !== phase.totalLimit) input.totalLimit = Number(totalLimit);
      }
      const r = resamples.trim() === '' ? null : Number(resamples);
      const sd = Number(seed);
      const significanceChanged = r !== phase.significanceResamples || sd !== phase.significanceSeed;
      if (Object.keys(input).length === 0 && !significanceChanged) return 'Nothing changed.';
      if (r !== null && !(Number.isInteger(r) && r >= 1)) throw new Error('Resamples must be a whole number of at least 1, or empty to choose automatically.');
      if (!Number.isInteger(sd) || sd < 0) throw new Error('The seed must be a whole number of at least 0.');
      if (Object.keys(input).length > 0) await request(UpdatePhaseDocument, { id: phase.id, input });
      if (significanceChanged) await request(SetPhaseSignificanceSettingsDocument, { phaseId: phase.id, resamples: r, seed: sd });
      onDone();
      return `Saved the settings of ${name.trim() || phase.name}.`;
    });
  }
  return (
    <form className="form phase-settings" onSubmit={submit} data-testid="phase-settings">
      <p className="small" data-testid="phase-settings-state">
        {phase.stateDescription}
        {schedule ? ` (${phaseTiming(phase)})` : ''}.{' '}
        {phase.lifecycleState === 'PUBLISHED'
          ? 'Published results are final: only the significance settings can change. Create a new phase for more submissions.'
          : schedule
            ? 'Dates and limits can change until the phase closes.'
            : 'Closed: dates and limits are fixed; the name and the board visibility can change until you publish.'}
      </p>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} disabled={!details} />
      </label>
      <div className="row">
        <label>
          Opens
          <input type="datetime-local" value={opensAt} onChange={(e) => setOpens(e.target.value)} required disabled={!schedule} />
        </label>
        <label>
          Closes
          <input type="datetime-local" value={closesAt} onChange={(e) => setCloses(e.target.value)} required disabled={!schedule} />
        </label>
      </div>
      <div className="row">
        <label>
          Submissions per team per day
          <input type="number" min={1} max={10000} value={dailyLimit} onChange={(e) => setDaily(e.target.value)} required disabled={!schedule} />
        </label>
        <label>
          In total
          <input type="number" min={1} max={100000} value={totalLimit} onChange={(e) => setTotal(e.target.value)} required disabled={!schedule} />
        </label>
      </div>
      <label className="check">
        <input type="checkbox" checked={visible} onChange={(e) => setVisible(e.target.checked)} disabled={!details} data-testid="board-visible" /> Everyone sees the leaderboard while the
        phase is open (off: only organisers until it is published)
      </label>
      <fieldset>
        <legend>Significance on the leaderboard</legend>
        <div className="row">
          <label>
            Resamples (empty: chosen automatically)
            <input inputMode="numeric" value={resamples} onChange={(e) => setResamples(e.target.value)} data-testid="significance-resamples" />
          </label>
          <label>
            Seed
            <input inputMode="numeric" value={seed} onChange={(e) => setSeed(e.target.value)} />
          </label>
        </div>
      </fieldset>
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save phase settings'}
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

/**
 * What teams see of their scores before publishing, the public/private split and the test-set
 * commitment of one phase (docs/adr/0014-no-oracles-split-commitment.md).
 */
function ScoringSettingsForm({ tasks, onDone }: { tasks: TasksQuery['tasks']; onDone: () => void }) {
  const all = tasks.flatMap((t) => t.phases.map((p) => ({ ...p, label: `${t.title} — ${p.name} (${LIFECYCLE_BADGE[p.lifecycleState] ?? p.lifecycleState})` })));
  const [phaseId, setPhaseId] = useState(() => preferredPhaseId(all));
  const phase = all.find((p) => p.id === phaseId);
  // As in PhaseSettingsForm: the outcome outlives the remount that the reload after saving causes.
  const action = useAction();
  return (
    <section aria-labelledby="scoring-settings-heading">
      <h2 id="scoring-settings-heading">Scores teams see, split and commitment</h2>
      <PhaseSelect phases={all} value={phaseId} onChange={setPhaseId} />
      {phase && <ScoringSettings key={`${phase.id}${phase.publishedAt ?? ''}${JSON.stringify(phase.split)}`} phase={phase} action={action} onDone={onDone} />}
    </section>
  );
}

function ScoringSettings({ phase, action, onDone }: { phase: PhaseRow; action: Action; onDone: () => void }) {
  const { busy, outcome, run } = action;
  const [teamInstanceScores, setTeamInstanceScores] = useState(phase.teamInstanceScores);
  const [mode, setMode] = useState<'none' | 'fraction' | 'ids'>(phase.split ? (phase.split.publicIds ? 'ids' : 'fraction') : 'none');
  const [fraction, setFraction] = useState(phase.split?.publicFraction ?? 0.3);
  const [seed, setSeed] = useState(phase.split?.seed ?? 0);
  const [ids, setIds] = useState((phase.split?.publicIds ?? []).join('\n'));
  const [finalOn, setFinalOn] = useState(phase.split?.finalOn ?? 'private');
  function submit(e: SyntheticEvent) {
    e.preventDefault();
    void run(async () => {
      const publicIds = ids.split(/[\s,]+/).filter((x) => x !== '');
      const split = mode === 'fraction' ? { publicFraction: fraction, seed, finalOn } : mode === 'ids' ? { publicIds, finalOn } : null;
      await request(UpdatePhaseDocument, {
        id: phase.id,
        input: { teamInstanceScores, ...(phase.publishedAt ? {} : split ? { split } : { removeSplit: true }) },
      });
      onDone();
      return `Saved the scoring settings of ${phase.name}.`;
    });
  }
  return (
    <form className="form" onSubmit={submit} data-testid="scoring-settings">
      <label className="check">
        <input type="checkbox" checked={teamInstanceScores} onChange={(e) => setTeamInstanceScores(e.target.checked)} data-testid="team-instance-scores" /> Before publishing, teams see
        per-instance scores of their own submissions (off: corpus scores only)
      </label>
      <fieldset disabled={!!phase.publishedAt}>
        <legend>Public/private split{phase.publishedAt ? ' (fixed once published)' : ''}</legend>
        <label>
          Split
          <select value={mode} onChange={(e) => setMode(e.target.value as 'none' | 'fraction' | 'ids')} data-testid="split-mode">
            <option value="none">None: rank on every instance</option>
            <option value="fraction">A seeded random fraction is public</option>
            <option value="ids">These instance ids are public</option>
          </select>
        </label>
        {mode === 'fraction' && (
          <div className="row">
            <label>
              Public fraction
              <input type="number" min={0.01} max={0.99} step={0.01} value={fraction} onChange={(e) => setFraction(Number(e.target.value))} data-testid="split-fraction" />
            </label>
            <label>
              Seed
              <input type="number" min={0} value={seed} onChange={(e) => setSeed(Number(e.target.value))} />
            </label>
          </div>
        )}
        {mode === 'ids' && (
          <label>
            Public instance ids (one per line)
            <textarea value={ids} onChange={(e) => setIds(e.target.value)} rows={4} data-testid="split-ids" />
          </label>
        )}
        {mode !== 'none' && (
          <label>
            Final ranking after publishing
            <select value={finalOn} onChange={(e) => setFinalOn(e.target.value)} data-testid="split-final-on">
              <option value="private">the private part</option>
              <option value="all">all instances</option>
            </select>
          </label>
        )}
      </fieldset>
      <p className="small muted">Before publishing, the board and the teams&apos; own scores use the public part; after publishing the final ranking uses the private part (or all).</p>
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
      <Result outcome={outcome} />
      <div className="small" data-testid="commitment">
        {phase.commitment ? (
          <>
            Test-set commitment <code>{phase.commitment.commitment}</code> (since {new Date(phase.commitment.committedAt).toLocaleString()});{' '}
            {phase.commitment.salt ? (
              <>
                salt <code>{phase.commitment.salt}</code> revealed: anyone can run <code>podium verify-commitment --url … --phase {phase.id}</code>.
              </>
            ) : (
              'its salt is revealed when you publish the results.'
            )}
          </>
        ) : (
          'No test-set commitment (no test set yet).'
        )}
      </div>
    </form>
  );
}

/** Each phase's state, with closing early and publishing (the visibility flip). */
function PhaseLifecycle({ tasks, onDone }: { tasks: TasksQuery['tasks']; onDone: () => void }) {
  const { busy, outcome, run } = useAction();
  const act = (text: string, action: () => Promise<unknown>) =>
    void run(async () => {
      await action();
      onDone();
      return text;
    });
  return (
    <section aria-labelledby="lifecycle-heading">
      <h2 id="lifecycle-heading">Run the phases</h2>
      <p className="small muted">
        Until a phase is published only organisers see its references; teams see their own outputs and scores. Closing (now, or when closesAt passes) ends submissions and freezes each team's primary submission (a team without one gets its latest scored submission). Publishing a closed phase shows references, every output and every score to everyone, and is final.
      </p>
      <table className="data-table" data-testid="phase-lifecycle">
        <ColumnHeads columns={['Phase', 'Id', 'State', 'Actions']} />
        <tbody>
          {tasks.flatMap((t) =>
            t.phases.map((p) => (
              <tr key={p.id} data-testid={`phase-row-${p.name}`}>
                <th scope="row">
                  {t.title} — {p.name}
                </th>
                <td>
                  <code>{p.id}</code>
                </td>
                <td data-testid="phase-state">
                  {STATE_LABEL[p.state] ?? p.state}: {p.stateDescription}
                </td>
                <td className="actions">
                  {p.lifecycleState === 'OPEN' && (
                    <ConfirmAction
                      label="Close now…"
                      testId={`close-${p.name}`}
                      disabled={busy}
                      confirmLabel={`Close ${p.name} now`}
                      consequence={async () => closeConsequence(p, (await request(PhaseImpactDocument, { id: p.id })).phaseImpact)}
                      onConfirm={() => act(`Closed ${p.name}.`, () => request(ClosePhaseDocument, { id: p.id }))}
                    />
                  )}
                  {p.lifecycleState === 'CLOSED' && (
                    <ConfirmAction
                      label="Publish results…"
                      testId={`publish-${p.name}`}
                      disabled={busy}
                      confirmLabel={`Publish ${p.name} (final)`}
                      consequence={async () => publishConsequence(p, (await request(PhaseImpactDocument, { id: p.id })).phaseImpact)}
                      onConfirm={() => act(`Published ${p.name}.`, () => request(PublishPhaseDocument, { id: p.id }))}
                    />
                  )}
                  {p.lifecycleState === 'SCHEDULED' && <span className="small muted">opens {formatDate(p.opensAt)}; edit it under Phase settings</span>}
                  {p.lifecycleState === 'PUBLISHED' && <span className="small muted">final: create a new phase for more submissions</span>}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <Result outcome={outcome} />
    </section>
  );
}

/** Per task: open registration or approval needed, and the teams waiting for approval. */
function TaskRegistrations({ task, onDone }: { task: TasksQuery['tasks'][number]; onDone: () => void }) {
  const regs = useQuery(RegistrationsDocument, { taskSlug: task.slug });
  const { busy, outcome, run } = useAction();
  const act = (text: string, action: () => Promise<unknown>) =>
    void run(async () => {
      await action();
      regs.refetch();
      onDone();
      return text;
    });
  const list = regs.data?.registrations ?? [];
  return (
    <div className="card" data-testid={`registrations-${task.slug}`}>
      <h3>{task.title}</h3>
      <p>
        Registration: <strong>{task.registration === 'OPEN' ? 'open (teams submit at once)' : 'approval needed'}</strong>{' '}
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            act('Changed the registration.', () => request(UpdateTaskRegistrationDocument, { slug: task.slug, registration: task.registration === 'OPEN' ? 'APPROVAL' : 'OPEN' }))
          }
        >
          {task.registration === 'OPEN' ? 'Require approval' : 'Open registration'}
        </button>
      </p>
      {list.length > 0 && (
        <ul>
          {list.map((r) => (
            <li key={r.team.id}>
              {r.team.name}: {r.status.toLowerCase()}{' '}
              {r.status === 'PENDING' && (
                <button type="button" disabled={busy} onClick={() => act(`Approved ${r.team.name}.`, () => request(ApproveRegistrationDocument, { taskSlug: task.slug, teamId: r.team.id }))}>
                  Approve
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Result outcome={outcome} />
    </div>
  );
}

function AuditLog() {
  const log = useQuery(AuditLogDocument, {});
  if (log.error) return <ErrorMessage error={log.error} onRetry={log.refetch} />;
  const entries = log.data?.auditLog ?? [];
  return (
    <section aria-labelledby="audit-heading">
      <div className="section-head">
        <h2 id="audit-heading">Audit log</h2>
        <button type="button" className="link-button" onClick={log.refetch}>
          Refresh
        </button>
      </div>
      {entries.length === 0 ? (
        <Empty>No organiser actions yet.</Empty>
      ) : (
        <table className="data-table" data-testid="audit-log">
          <ColumnHeads columns={['When', 'Who', 'What', 'Details']} />
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{new Date(e.createdAt).toISOString().replace('T', ' ').slice(0, 19)}</td>
                <td>{e.actor}</td>
                <td>{e.action}</td>
                <td className="small">{Object.entries(e.details).filter(([k]) => k !== 'taskId').map(([k, v]) => `${k}: ${String(v)}`).join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function OrganisePage() {
  const { signedIn, me, loading } = useAuth();
  const tasks = useQuery(TasksDocument, {});
  if (!signedIn && !loading) {
    return (
      <section>
        <h1>Organise</h1>
        <Empty>Sign in with an organiser token (top right) to create tasks and phases.</Empty>
      </section>
    );
  }
  // Only before the first answer: a later re-read of the account (a mutation returned a team) must
  // not unmount the forms and lose what is typed in them.
  if (loading && !me) return <Loading what="your account" />;
  if (me?.role !== 'ORGANISER' && !organises(me)) {
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
        {list.length > 0 && <EditTaskForm key={`e${list.length}`} tasks={list} onDone={tasks.refetch} />}
        {/* Teams with members and tokens for them are the administrators' (ADR 0012). */}
        {me?.role === 'ADMIN' && <TeamForm />}
      </div>
      <TaskBundleForm tasks={list} onDone={tasks.refetch} />
      {list.length > 0 && <PhaseLifecycle tasks={list} onDone={tasks.refetch} />}
      {phases.length > 0 && <PhaseSettingsForm key={`s${phases.length}`} tasks={list} onDone={tasks.refetch} />}
      {phases.length > 0 && <ScoringSettingsForm key={`c${phases.length}`} tasks={list} onDone={tasks.refetch} />}
      {list.length > 0 && (
        <section aria-labelledby="registration-heading">
          <h2 id="registration-heading">Registration</h2>
          {list.map((t) => (
            <TaskRegistrations key={t.id} task={t} onDone={tasks.refetch} />
          ))}
        </section>
      )}
      <AuditLog key={list.map((t) => t.phases.map((p) => `${p.state}${p.closedEarlyAt ?? ''}`).join()).join()} />
    </section>
  );
}
