// Downloads write Podium's one CSV dialect (RFC 4180, CRLF; see @podium/robustness csv.ts).
// Streaming endpoints format a row at a time with csvRow, so a large export never sits in memory.
import { CSV_RECORD_END, csvField, csvRow } from '@podium/contracts';
import type { LongScoreColumn, LongScoreRow } from '@podium/db';

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
  const parts = columnParts(columns, row);
  let column: Pick<LongScoreRow, 'submissionId' | 'systemName' | 'teamName' | 'metric' | 'signature'> | null = null;
  let before = '';
  let between = '';
  let after = '';
  return (r) => {
    if (!column || r.submissionId !== column.submissionId || r.metric !== column.metric || r.signature !== column.signature || r.systemName !== column.systemName || r.teamName !== column.teamName) {
      ({ before, between, after } = parts(r));
      column = r;
    }
    return before + csvField(r.instanceId) + between + String(r.score) + after;
  };
}

/** The text of a column's rows around its instance id and score, from the row of one of them. */
function columnParts(
  columns: readonly string[],
  row: (r: LongScoreRow) => ScoreExportRow | PhaseScoreExportRow,
): (r: Omit<LongScoreRow, 'instanceId' | 'position' | 'score'>) => { before: string; between: string; after: string } {
  const idAt = columns.indexOf('instance_id');
  const scoreAt = columns.indexOf('score');
  if (idAt < 0 || scoreAt <= idAt) throw new Error(`a score export needs instance_id before score, got columns ${columns.join(',')}`);
  return (r) => {
    const values = row({ ...r, instanceId: '', position: 0, score: 0 }) as unknown as Record<string, string | number | boolean | undefined>;
    const cells = columns.map((c) => cell(values[c]));
    return {
      before: cells.slice(0, idAt).map((c) => `${c},`).join(''),
      between: `,${cells.slice(idAt + 1, scoreAt).map((c) => `${c},`).join('')}`,
      after: cells.slice(scoreAt + 1).map((c) => `,${c}`).join('') + CSV_RECORD_END,
    };
  };
}

/** Bytes per chunk of a column's CSV (a row longer than this gets a chunk of its own size). */
const COLUMN_CHUNK_BYTES = 64 * 1024;
/** The longest `String()` of a double: `-1.2345678901234567e-123` is 24 characters. */
const MAX_NUMBER_CHARS = 24;

/**
 * Chunk buffers handed back once written, for the next chunks: a fresh 64 KiB buffer per chunk is
 * external memory, and V8 answers 100 MB of it (a 10⁶-row export) with full mark-compacts of the
 * api's whole heap, ~20 of them per 900,000 rows (issue #28). Holds at most `keep` buffers.
 */
export class ChunkPool {
  private readonly free: ArrayBuffer[] = [];
  constructor(
    readonly size = COLUMN_CHUNK_BYTES,
    private readonly keep = 8,
  ) {}

  /** A buffer of at least `size` bytes (its contents: anything). */
  take(size = this.size): Buffer {
    if (size > this.size) return Buffer.allocUnsafeSlow(size);
    const free = this.free.pop();
    return free ? Buffer.from(free, 0, this.size) : Buffer.allocUnsafeSlow(this.size);
  }

  /** Hands back a chunk (a view from its start) of a buffer from `take`, once nothing reads it any more. */
  give(chunk: Uint8Array): void {
    if (chunk.byteOffset === 0 && chunk.buffer.byteLength === this.size && chunk.buffer instanceof ArrayBuffer && this.free.length < this.keep) this.free.push(chunk.buffer);
  }
}

/** A test set's instance ids as CSV fields, UTF-8, end to end; id p is bytes [ends[p − 1], ends[p]). */
interface IdBytes {
  bytes: Buffer;
  ends: Uint32Array;
  longest: number;
}

function idBytesOf(ids: readonly string[]): IdBytes {
  const fields = ids.map((id) => Buffer.from(csvField(id), 'utf8'));
  const ends = new Uint32Array(fields.length);
  let at = 0;
  let longest = 0;
  for (const [i, f] of fields.entries()) {
    at += f.length;
    ends[i] = at;
    longest = Math.max(longest, f.length);
  }
  return { bytes: Buffer.concat(fields, at), ends, longest };
}

/**
 * The CSV bytes of a stored column's rows, the same bytes as `scoreCsvLines` writes for the rows
 * of `longRowsOf(column, …, visible)`, in chunks of about 64 KiB: no row object, no string per
 * row but its score's `String()` (the shortest text that reads back as the same double, as
 * every other download writes numbers). The parts shared by a column's rows are encoded once
 * per column, the instance ids once per test set (while its ids array is alive), and each row is
 * copied into the chunk. Chunks come from `pool` (give them back once written). Issue #28: a
 * phase's export had spent most of the api's time making, collecting and encoding the rows'
 * objects and strings.
 */
export function scoreCsvColumns(
  columns: readonly string[],
  row: (r: LongScoreRow) => ScoreExportRow | PhaseScoreExportRow,
): (column: LongScoreColumn, visible: Uint8Array | null, pool: ChunkPool) => Generator<Buffer> {
  const parts = columnParts(columns, row);
  const idsOf = new WeakMap<readonly string[], IdBytes>();
  return function* (column, visible, pool) {
    const { before, between, after } = parts(column);
    const head = Buffer.from(before, 'utf8');
    const mid = Buffer.from(between, 'utf8');
    const tail = Buffer.from(after, 'utf8');
    let ids = idsOf.get(column.instanceIds);
    if (!ids) idsOf.set(column.instanceIds, (ids = idBytesOf(column.instanceIds)));
    const { bytes, ends } = ids;
    const values = column.values;
    const n = Math.min(values.length, ends.length);
    const longest = head.length + ids.longest + mid.length + MAX_NUMBER_CHARS + tail.length;
    const size = Math.max(pool.size, longest);
    let out = pool.take(size);
    let at = 0;
    for (let p = 0; p < n; p++) {
      const score = values[p] as number;
      if (Number.isNaN(score) || (visible !== null && visible[p] !== 1)) continue;
      if (at + longest > size) {
        yield out.subarray(0, at);
        out = pool.take(size);
        at = 0;
      }
      out.set(head, at);
      at += head.length;
      for (let b = p === 0 ? 0 : (ends[p - 1] as number), e = ends[p] as number; b < e; b++) out[at++] = bytes[b] as number;
      out.set(mid, at);
      at += mid.length;
      const text = String(score);
      for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
      for (let i = 0; i < tail.length; i++) out[at++] = tail[i] as number;
    }
    if (at > 0) yield out.subarray(0, at);
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
