import type { PhaseSubmissionsQuery } from '../graphql/generated';
import { formatDate, progressPercent } from '../lib/format';
import { Link } from 'wouter';
import { Empty } from './status';
import { ColumnHeads } from './column-heads';

type Item = PhaseSubmissionsQuery['submissions'][number];

/** A status in words and symbol, so it does not depend on colour. */
export function StatusBadge({ status, done, total }: { status: Item['status']; done: number; total: number }) {
  const text =
    status === 'SCORING' ? `scoring ${progressPercent(done, total)}%` : status === 'SCORED' ? '✓ scored' : status === 'FAILED' ? '✗ failed' : '… queued';
  return <span className={`badge status-${status.toLowerCase()}`}>{text}</span>;
}

export function SubmissionList({ submissions }: { submissions: readonly Item[] }) {
  if (submissions.length === 0) return <Empty>No submissions yet.</Empty>;
  return (
    <div className="table-scroll">
      <table className="data-table">
        <ColumnHeads columns={['System', 'Team', 'Status', 'Submitted']} />
        <tbody>
          {submissions.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                <Link to={`/submissions/${encodeURIComponent(s.id)}`}>{s.systemName}</Link>
                {s.isBaseline && <span className="badge badge-baseline">baseline</span>}
                {s.isPrimary && <span className="badge badge-open">primary</span>}
                {s.moderation !== 'NONE' && <span className="badge badge-moderated">{s.moderation.toLowerCase()}</span>}
                {s.duplicateOf && <span className="badge" title={`identical to ${s.duplicateOf.systemName}`}>duplicate</span>}
              </th>
              <td>{s.team.name}</td>
              <td>
                <StatusBadge status={s.status} done={s.progressDone} total={s.progressTotal} />
              </td>
              <td>{formatDate(s.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
