// Downloads write Podium's one CSV dialect (RFC 4180, CRLF; see @podium/robustness csv.ts).
// Streaming endpoints format a row at a time with csvRow, so a large export never sits in memory.
import { CSV_RECORD_END, csvField, csvRow } from '@podium/contracts';
import type { LongScoreRow } from '@podium/db';

export { csvRow };

/** Column order of the long-form score downloads. */
export const SCORE_COLUMNS = ['system', 'team', 'instance_id', 'metric', 'signature', 'score'] as const;

export interface ScoreExportRow {
  system: string;
  team: string;
  instance_id: string;
  metric: string;
  signature: string;
  score: number;
}

/**
 * Column order of a phase's score download: which submission, whether it is its team's primary
 * or a baseline, and its status (`scored`, `disqualified`, or `hidden` for organisers), then the
 * long-form score.
 */
export const PHASE_SCORE_COLUMNS = ['submission_id', 'system', 'team', 'primary', 'baseline', 'status', 'instance_id', 'metric', 'signature', 'score'] as const;

export interface PhaseScoreExportRow extends ScoreExportRow {
  submission_id: string;
  primary: boolean;
  baseline: boolean;
  status: 'scored' | 'disqualified' | 'hidden';
}

export type ExportFormat = 'csv' | 'jsonl';

export function exportHeader(format: ExportFormat, columns: readonly string[] = SCORE_COLUMNS): string {
  return format === 'csv' ? csvRow(columns) : '';
}

export function exportLine(format: ExportFormat, row: ScoreExportRow | PhaseScoreExportRow, columns: readonly string[] = SCORE_COLUMNS): string {
  if (format === 'jsonl') return JSON.stringify(row) + '\n';
  const values = row as unknown as Record<string, string | number | boolean>;
  return csvRow(
    columns.map((c) => {
      const v = values[c] ?? '';
      return typeof v === 'boolean' ? String(v) : v;
    }),
  );
}

/** A cell as exportLine writes it: booleans as `true`/`false`, a missing value as empty. */
const cell = (v: string | number | boolean | undefined): string => csvField(typeof v === 'boolean' ? String(v) : (v ?? ''));

/**
 * The CSV line of each long score row, the same text as `exportLine('csv', row(r), columns)`,
 * for rows that come a stored column at a time (ScoreRepository.longRows). `row` may depend on
 * the row's column only (submission, system, team, metric, signature) apart from `instance_id`
 * and `score`: the other fields are formatted once per column, so a row costs a check of its
 * instance id, its score's `String()` and five concatenations.
 *
 * Cost model (issue #28, 3 × 10⁷ rows ≤ 60 s): a row through csvRow costs ~2 µs of formatting
 * (csv-stringify alone ~5 µs) plus the row object; this writer ~0.3 µs, about as much as
 * `String(score)`. What is left per row is the repository's row object and the socket.
 */
export function scoreCsvLines(columns: readonly string[], row: (r: LongScoreRow) => ScoreExportRow | PhaseScoreExportRow): (r: LongScoreRow) => string {
  const idAt = columns.indexOf('instance_id');
  const scoreAt = columns.indexOf('score');
  if (idAt < 0 || scoreAt <= idAt) throw new Error(`a score export needs instance_id before score, got columns ${columns.join(',')}`);
  let column: Pick<LongScoreRow, 'submissionId' | 'systemName' | 'teamName' | 'metric' | 'signature'> | null = null;
  let before = '';
  let between = '';
  let after = '';
  return (r) => {
    if (!column || r.submissionId !== column.submissionId || r.metric !== column.metric || r.signature !== column.signature || r.systemName !== column.systemName || r.teamName !== column.teamName) {
      const values = row(r) as unknown as Record<string, string | number | boolean | undefined>;
      const cells = columns.map((c) => cell(values[c]));
      before = cells.slice(0, idAt).map((c) => `${c},`).join('');
      between = `,${cells.slice(idAt + 1, scoreAt).map((c) => `${c},`).join('')}`;
      after = cells.slice(scoreAt + 1).map((c) => `,${c}`).join('') + CSV_RECORD_END;
      column = r;
    }
    return before + csvField(r.instanceId) + between + String(r.score) + after;
  };
}

export const EXPORT_CONTENT_TYPE: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/** `attachment` with an ASCII-safe file name (anything else becomes '-'). */
export function attachmentDisposition(fileName: string): string {
  const safe = fileName.replace(/[^A-Za-z0-9._-]+/g, '-');
  return `attachment; filename="${safe}"`;
}
