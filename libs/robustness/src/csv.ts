/**
 * Minimal RFC 4180 CSV reading and writing: quoted fields may hold commas, quotes ("") and
 * newlines. Kept here rather than pulling a dependency because the suite format is fixed.
 */

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

/**
 * Splits CSV text into records of fields. A trailing newline does not add a record; a
 * leading byte-order mark is dropped; `\r\n` and `\n` both end records.
 * @example parseCsv('a,b\n"x, y",z\n') // [['a', 'b'], ['x, y', 'z']]
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let inQuotes = false;
  let fieldWasQuoted = false;
  let line = 1;
  let quoteLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = (): void => {
    record.push(field);
    records.push(record);
    record = [];
    field = '';
    fieldWasQuoted = false;
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"') {
      if (field !== '' || fieldWasQuoted) throw new CsvSyntaxError('quote inside an unquoted field', line);
      inQuotes = true;
      quoteLine = line;
      fieldWasQuoted = true;
    } else if (ch === ',') {
      record.push(field);
      field = '';
      fieldWasQuoted = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
    } else {
      if (fieldWasQuoted) throw new CsvSyntaxError('text after a closing quote', line);
      field += ch;
    }
  }
  if (inQuotes) throw new CsvSyntaxError('unterminated quoted field', quoteLine);
  if (field !== '' || fieldWasQuoted || record.length > 0) endRecord();
  return records;
}

function quoteField(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Writes records as CSV with `\n` line ends, quoting only fields that need it. */
export function formatCsv(records: readonly (readonly string[])[]): string {
  return records.map((r) => r.map(quoteField).join(',')).join('\n') + (records.length ? '\n' : '');
}
