/**
 * Podium's one CSV dialect, RFC 4180, read by csv-parse and written by csv-stringify:
 * - fields separated by `,`; a field holding `,`, `"`, CR or LF is quoted, quotes doubled;
 * - written with CRLF record ends (RFC 4180 §2.1), read with CRLF or LF (mixed is fine);
 * - a leading UTF-8 byte-order mark is dropped, blank lines are skipped;
 * - a quote inside an unquoted field, text after a closing quote (`"a"b`) or an unterminated
 *   quote is a {@link CsvSyntaxError} naming the line, never silently repaired.
 * - text fields that would start a spreadsheet formula (`=`, `+`, `-`, `@`, tab, CR) are written
 *   with a leading `'` (OWASP), unless the caller asks to keep them (data files read back by Podium).
 * Every reader and writer in the apps (CLI inputs, MENLI suites, REST downloads) goes through here.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** Record terminator of every CSV Podium writes (RFC 4180). */
export const CSV_RECORD_END = '\r\n';

/** A CSV syntax problem, with the 1-based line where it was found. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'CsvSyntaxError';
  }
}

/** One CSV record and the 1-based line it starts on. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

const SYNTAX_MESSAGES: Record<string, string> = {
  CSV_INVALID_CLOSING_QUOTE: 'text after a closing quote',
  INVALID_OPENING_QUOTE: 'quote inside an unquoted field',
  CSV_QUOTE_NOT_CLOSED: 'unterminated quoted field',
};

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/** The dialect's reading options; `to` stops after that many records. */
function parseWithInfo(text: string, to?: number): ParsedRecord[] {
  const records: unknown = parse(text, {
    bom: true,
    info: true,
    record_delimiter: ['\r\n', '\n'],
    relax_column_count: true,
    skip_empty_lines: true,
    ...(to === undefined ? {} : { to }),
  });
  return records as ParsedRecord[]; // `info: true` wraps each record; csv-parse's types do not track it
}

/**
 * Splits CSV text into records with the line each starts on. Records may differ in length;
 * callers check against their header and report the line.
 * @throws CsvSyntaxError for malformed quoting.
 * @example parseCsvRecords('a,b\r\n"x\ny",z\n') // [{ fields: ['a', 'b'], line: 1 }, { fields: ['x\ny', 'z'], line: 2 }]
 */
export function parseCsvRecords(text: string): CsvRecord[] {
  let parsed: ParsedRecord[];
  try {
    parsed = parseWithInfo(text);
  } catch (err) {
    if (err instanceof CsvError) {
      // CsvError carries the parser's counters (lines, records) as untyped extra properties.
      const counter = (v: unknown): number => (typeof v === 'number' ? v : 0);
      const line = err.code === 'CSV_QUOTE_NOT_CLOSED' ? unterminatedRecordLine(text, counter(err['records'])) : counter(err['lines']);
      throw new CsvSyntaxError(SYNTAX_MESSAGES[err.code] ?? err.message, line);
    }
    throw err;
  }
  // csv-parse reports the line a record ends on; a quoted field's newlines move its start back.
  return parsed.map(({ record, info }) => ({
    fields: record,
    line: info.lines - record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0),
  }));
}

/** csv-parse reports the end of input for an unclosed quote; the line that opened it is more useful. */
function unterminatedRecordLine(text: string, goodRecords: number): number {
  const done = goodRecords > 0 ? parseWithInfo(text, goodRecords) : [];
  const lines = text.split(/\r?\n/);
  let line = (done.at(-1)?.info.lines ?? 0) + 1;
  while (line < lines.length && lines[line - 1] === '') line++; // skipped blank lines
  return line;
}

/**
 * Splits CSV text into records of fields (see {@link parseCsvRecords}).
 * @example parseCsv('a,b\n"x, y",z\n') // [['a', 'b'], ['x, y', 'z']]
 */
export function parseCsv(text: string): string[][] {
  return parseCsvRecords(text).map((r) => r.fields);
}

const STRINGIFY_OPTIONS = {
  record_delimiter: CSV_RECORD_END,
  // csv-stringify quotes the record delimiter (CRLF) but not a lone CR or LF; RFC 4180 wants both.
  quoted_match: /[\r\n]/,
  cast: { number: (v: number): string => String(v) },
};

/**
 * A text field a spreadsheet (Excel, LibreOffice, Google Sheets) would run as a formula: one that
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP, "CSV Injection").
 * Text that is exactly a decimal number (`-1.5`, `+2`, `-3e-7`) is a number to a spreadsheet,
 * not a formula, and stays as it is; so do JavaScript numbers (`-0.25` is written `-0.25`).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * OWASP's rule for spreadsheet-bound CSV: a text field that would start a formula gets a leading
 * single quote (`=SUM(A1)` → `'=SUM(A1)`), which spreadsheets show as text and never evaluate.
 * @example neutraliseFormula('=HYPERLINK("http://x")') // `'=HYPERLINK("http://x")`
 */
export function neutraliseFormula(field: string): string {
  return FORMULA_START.test(field) && !DECIMAL_NUMBER.test(field) ? `'${field}` : field;
}

export interface FormatCsvOptions {
  /**
   * `neutralise` (default): text fields that would start a spreadsheet formula get a leading
   * `'` ({@link neutraliseFormula}); every download goes this way. `keep`: fields exactly as
   * given, for data files Podium reads back itself (MENLI suites), never offered to spreadsheets.
   */
  formulas?: 'neutralise' | 'keep';
}

/** Writes records as CSV: CRLF after every record, fields quoted only where needed, formulas neutralised. */
export function formatCsv(records: readonly (readonly (string | number)[])[], options: FormatCsvOptions = {}): string {
  if (records.length === 0) return '';
  const safe = options.formulas === 'keep' ? records : records.map((r) => r.map((f) => (typeof f === 'string' ? neutraliseFormula(f) : f)));
  return stringify(safe as (string | number)[][], STRINGIFY_OPTIONS);
}

/** A character that makes csv-stringify quote a field (with the dialect's options): quote, delimiter, CR, LF. */
const QUOTED_CHARACTER = /[",\r\n]/;

/**
 * One CSV record with its CRLF (formulas neutralised), for writers that stream a row at a time.
 * Fields are written independently of each other, so a record whose text fields need no quoting
 * and start no formula is its fields joined by `,` (numbers as `String(n)`, as the dialect casts
 * them): that record skips csv-stringify, whose per-record setup cost ~3 µs and dominated a
 * 3 × 10⁷-row score export (issue #28). Any other record goes through {@link formatCsv}; the
 * text is the same either way (csv.spec.ts compares both on generated fields).
 */
export function csvRow(values: readonly (string | number)[], options: FormatCsvOptions = {}): string {
  if (values.length === 0) return formatCsv([values], options);
  const neutralise = options.formulas !== 'keep';
  let line = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as string | number;
    let text: string;
    if (typeof v === 'number') text = String(v);
    // Anything but a plain string (a null or boolean that slipped past the types too) as csv-stringify writes it.
    else if (typeof v !== 'string' || QUOTED_CHARACTER.test(v) || (neutralise && FORMULA_START.test(v))) return formatCsv([values], options);
    else text = v;
    line = i === 0 ? text : `${line},${text}`;
  }
  return line + CSV_RECORD_END;
}

/**
 * One field as {@link csvRow} writes it inside a record (fields are written independently of
 * each other): for writers that format the fields shared by many records once.
 */
export function csvField(value: string | number, options: FormatCsvOptions = {}): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' && !QUOTED_CHARACTER.test(value) && (options.formulas === 'keep' || !FORMULA_START.test(value))) return value;
  return formatCsv([['', value]], options).slice(1, -CSV_RECORD_END.length);
}
