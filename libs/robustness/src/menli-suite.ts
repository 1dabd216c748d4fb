import { at, CsvSyntaxError, formatCsv, parseCsvRecords, type CsvRecord } from '@podium/contracts';

/** Columns of a MENLI adversarial suite file, in the upstream order. */
export const MENLI_COLUMNS = ['error', 'id', 'source', 'ref', 'r', 'hyp_para', 'hyp_adv_based', 'hyp_adv_free'] as const;

/** One row of a MENLI adversarial suite (Chen & Eger 2022, `adv_datasets/.../data.csv`). */
export interface MenliRow {
  /** Phenomenon code, e.g. `add`, `num`, `word_NN`, `typo`. */
  error: string;
  id: string;
  /** Source-language text (src). */
  source: string;
  /** Human reference translation (ref). */
  ref: string;
  /** Machine translation of src, the base of `hypAdvFree`. */
  r: string;
  /** Meaning-preserving paraphrase of ref. */
  hypPara: string;
  /** ref with one adversarial edit (reference-based mode). */
  hypAdvBased: string;
  /** r with one adversarial edit (reference-free mode). */
  hypAdvFree: string;
}

/**
 * A MENLI suite file that cannot be read, with the 1-based CSV record it concerns (the header
 * is record 1; equals the line number unless quoted fields span lines).
 */
export class MenliSuiteError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(line > 0 ? `record ${line}: ${message}` : message);
    this.name = 'MenliSuiteError';
  }
}

/**
 * Parses a MENLI-format CSV (header row naming at least the {@link MENLI_COLUMNS}, in any
 * order). Pure: the caller reads the file. Empty `error`, `ref`, `hyp_para` or
 * `hyp_adv_based` cells are rejected; `source`, `r` and `hyp_adv_free` may be empty
 * (a reference-based-only suite), which {@link menliPreferenceRows} checks per mode.
 * @example parseMenliCsv(text).filter((r) => r.error === 'num').length // 200 for WMT20_de
 */
export function parseMenliCsv(text: string): MenliRow[] {
  let records: CsvRecord[];
  try {
    records = parseCsvRecords(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new MenliSuiteError(err.message.replace(/^line \d+: /, ''), err.line);
    throw err;
  }
  if (records.length === 0) throw new MenliSuiteError('empty file, expected a header row', 1);
  const header = at(records, 0).fields.map((h) => h.trim());
  const index = new Map<string, number>();
  header.forEach((h, i) => index.set(h, i));
  const missing = MENLI_COLUMNS.filter((c) => !index.has(c));
  if (missing.length) throw new MenliSuiteError(`missing column(s) ${missing.join(', ')}`, 1);
  const col = (rec: string[], name: (typeof MENLI_COLUMNS)[number]): string => rec[index.get(name) as number] ?? '';
  const rows: MenliRow[] = [];
  const seen = new Set<string>();
  for (const { fields: rec, line } of records.slice(1)) {
    if (rec.length !== header.length) {
      throw new MenliSuiteError(`expected ${header.length} fields, found ${rec.length}`, line);
    }
    const row: MenliRow = {
      error: col(rec, 'error').trim(),
      id: col(rec, 'id').trim(),
      source: col(rec, 'source'),
      ref: col(rec, 'ref'),
      r: col(rec, 'r'),
      hypPara: col(rec, 'hyp_para'),
      hypAdvBased: col(rec, 'hyp_adv_based'),
      hypAdvFree: col(rec, 'hyp_adv_free'),
    };
    for (const [key, name] of [
      ['error', 'error'],
      ['ref', 'ref'],
      ['hypPara', 'hyp_para'],
      ['hypAdvBased', 'hyp_adv_based'],
    ] as const) {
      if (row[key].trim() === '') throw new MenliSuiteError(`empty ${name}`, line);
    }
    const key = `${row.error}\u0000${row.id}`;
    if (seen.has(key)) throw new MenliSuiteError(`duplicate (error, id) = (${row.error}, ${row.id})`, line);
    seen.add(key);
    rows.push(row);
  }
  if (rows.length === 0) throw new MenliSuiteError('no rows after the header', 2);
  return rows;
}

/** Writes rows as a MENLI-format CSV that {@link parseMenliCsv} reads back unchanged. */
export function formatMenliCsv(rows: readonly MenliRow[]): string {
  return formatCsv([
    [...MENLI_COLUMNS],
    ...rows.map((r) => [r.error, r.id, r.source, r.ref, r.r, r.hypPara, r.hypAdvBased, r.hypAdvFree]),
  ], { formulas: 'keep' });
}
