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

export type ExportFormat = 'csv' | 'jsonl';

export function exportHeader(format: ExportFormat): string {
  return format === 'csv' ? csvRow(SCORE_COLUMNS) : '';
}

export function exportLine(format: ExportFormat, row: ScoreExportRow): string {
  if (format === 'jsonl') return JSON.stringify(row) + '\n';
  return csvRow(SCORE_COLUMNS.map((c) => row[c]));
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
