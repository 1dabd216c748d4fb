// Downloads write Podium's one CSV dialect (RFC 4180, CRLF; see @podium/robustness csv.ts).
// Streaming endpoints format a row at a time with csvRow, so a large export never sits in memory.
import { csvRow } from '@podium/contracts';

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

export const EXPORT_CONTENT_TYPE: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/** `attachment` with an ASCII-safe file name (anything else becomes '-'). */
export function attachmentDisposition(fileName: string): string {
  const safe = fileName.replace(/[^A-Za-z0-9._-]+/g, '-');
  return `attachment; filename="${safe}"`;
}
