import { TasksDocument } from '../graphql/generated';
import { formatDate, formatLanguages, LIFECYCLE_BADGE, phaseTiming } from '../lib/format';
import { useQuery } from '../lib/graphql-client';
import { Link } from 'wouter';
import { Empty, ErrorMessage, Loading } from '../components/status';

export function TasksPage() {
  const { data, error, loading, refetch } = useQuery(TasksDocument, {});
  return (
    <section>
      <h1>Tasks</h1>
      {loading && !data && <Loading what="tasks" />}
      {error && <ErrorMessage error={error} onRetry={refetch} title="Could not load the tasks" />}
      {data && data.tasks.length === 0 && <Empty>No tasks yet. An organiser can create one on the Organise page.</Empty>}
      {data && data.tasks.length > 0 && (
        <div className="table-scroll">
          <table className="data-table tasks-table">
            <caption className="visually-hidden">Shared tasks with their phases</caption>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Kind</th>
                <th scope="col">Languages</th>
                <th scope="col">Phases and deadlines</th>
                <th scope="col" className="num">Systems</th>
              </tr>
            </thead>
            <tbody>
              {data.tasks.map((t) => (
                <tr key={t.id}>
                  <td>
                    <Link to={`/tasks/${encodeURIComponent(t.slug)}`}>{t.title}</Link>
                    <div className="muted small">{t.slug}</div>
                  </td>
                  <td>{t.kind}</td>
                  <td>{formatLanguages(t.sourceLang, t.targetLang)}</td>
                  <td>
                    {t.phases.length === 0 ? (
                      <span className="muted">no phases yet</span>
                    ) : (
                      <ul className="plain-list">
                        {t.phases.map((p) => (
                          <li key={p.id}>
                            <Link to={`/tasks/${encodeURIComponent(t.slug)}?phase=${encodeURIComponent(p.id)}`}>{p.name}</Link>{' '}
                            <span className={p.isOpen ? 'badge badge-open' : 'badge'}>{LIFECYCLE_BADGE[p.lifecycleState]}</span>{' '}
                            <span className="small" title={`${formatDate(p.opensAt)} – ${formatDate(p.closesAt)}`}>
                              {phaseTiming(p)}
                              {p.lifecycleState === 'OPEN' || p.lifecycleState === 'SCHEDULED' ? ` (${formatDate(p.closesAt)})` : ''}
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  {/* Counts of unpublished phases reach organisers only (null otherwise). */}
                  <td className="num">{t.phases.some((p) => p.scoredCount !== null) ? t.phases.reduce((n, p) => n + (p.scoredCount ?? 0), 0) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
