/** Test input of a phase: instance ids and sources in test-set order, never references. */
export type TestInputFormat = 'tsv' | 'jsonl' | 'txt';
export const TEST_INPUT_FORMATS: readonly TestInputFormat[] = ['tsv', 'jsonl', 'txt'];

export const TEST_INPUT_CONTENT_TYPE: Record<TestInputFormat, string> = {
  tsv: 'text/tab-separated-values; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

export interface TestInputRow {
  id: string;
  source: string;
  /** Optional context of the instance (JSON object); JSONL carries it, TSV as a JSON column. */
  context?: Record<string, unknown> | null;
}

/** Tabs, line breaks and backslashes inside a field as \t, \n, \r and \\, so one instance stays one line. */
export function escapeField(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** `withContext`: the test set has context on some instance (TSV then gets a `context` column). */
export function testInputHeader(format: TestInputFormat, withContext = false): string {
  return format === 'tsv' ? (withContext ? 'id\tsource\tcontext\n' : 'id\tsource\n') : '';
}

/**
 * One instance as a line: TSV `id<TAB>source` (escaped), JSONL `{"id","source"}`, or the
 * escaped source alone (plain lines: line k is instance k; submit outputs in the same order).
 */
export function testInputLine(format: TestInputFormat, row: TestInputRow, withContext = false): string {
  if (format === 'jsonl') return `${JSON.stringify(row.context ? { id: row.id, source: row.source, context: row.context } : { id: row.id, source: row.source })}\n`;
  if (format === 'tsv') {
    const context = withContext ? `\t${row.context ? escapeField(JSON.stringify(row.context)) : ''}` : '';
    return `${escapeField(row.id)}\t${escapeField(row.source)}${context}\n`;
  }
  return `${escapeField(row.source)}\n`;
}

export function parseTestInputFormat(value: unknown): TestInputFormat | undefined {
  return typeof value === 'string' && (TEST_INPUT_FORMATS as readonly string[]).includes(value) ? (value as TestInputFormat) : undefined;
}
