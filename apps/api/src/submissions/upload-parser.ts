/**
 * Parses a submission file into one output per test-set instance. Pure: bytes and the
 * test set's instance ids in, outputs in test-set order (or an UploadRejection) out.
 *
 * Formats: JSONL, one `{"id": …, "output": …}` object per line; or TEXT, one line per
 * instance in test-set order. Without an explicit format, a file whose first non-blank
 * character is `{` is JSONL.
 */

export type UploadFormat = 'jsonl' | 'text';

export interface ParsedUpload {
  format: UploadFormat;
  /** One output per instance, in test-set order. */
  outputs: { instanceId: string; text: string }[];
}

/** Why an upload was refused, pointing at the line (1-based) and instance when known. */
export class UploadRejection extends Error {
  constructor(
    message: string,
    readonly pointer: { line?: number; instanceId?: string; byteOffset?: number } = {},
  ) {
    super(message);
    this.name = 'UploadRejection';
  }
}

import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { findUnstorable } from '../common/storable-text';

const BOM = '\uFEFF';
const MAX_NAMED = 5;
/** Bad lines named one by one in a refusal; the rest are counted. */
export const MAX_LINE_PROBLEMS = 20;

/**
 * One refusal for every bad line found: a single one as it is, several as
 * "3 lines are refused: line 2: …; line 5: …" (the first {@link MAX_LINE_PROBLEMS} named),
 * pointing at the first.
 */
function refuseLines(problems: readonly UploadRejection[], total: number): UploadRejection {
  const [first] = problems;
  if (!first) return new UploadRejection('the file was refused');
  if (total === 1) return first;
  const more = total - problems.length;
  const named = problems.map((p) => p.message).join('; ');
  return new UploadRejection(`${total} lines are refused: ${named}${more > 0 ? `; and ${more} more` : ''}`, first.pointer);
}

function quoteList(ids: readonly string[], total: number): string {
  const named = ids.slice(0, MAX_NAMED).map((id) => `'${id}'`).join(', ');
  return total > MAX_NAMED ? `${named}, … (${total} in all)` : named;
}

/** Byte offset of the first byte that is not part of well-formed UTF-8, or -1. */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  for (let b = bytes[i]; b !== undefined; b = bytes[i]) {
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** Decodes strict UTF-8; a malformed byte is reported with its offset and line. */
export function decodeUtf8(input: Uint8Array | string): string {
  if (typeof input === 'string') return input;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input);
  } catch {
    const offset = Math.max(firstInvalidUtf8Offset(input), 0);
    let line = 1;
    for (let i = 0; i < offset; i++) if (input[i] === 0x0a) line++;
    throw new UploadRejection(`the file is not valid UTF-8: malformed byte at offset ${offset} (line ${line})`, { line, byteOffset: offset });
  }
}

/** Splits into lines, accepting LF or CRLF and one trailing newline. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

export function detectFormat(text: string): UploadFormat {
  const first = /\S/.exec(text);
  return first?.[0] === '{' ? 'jsonl' : 'text';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}


/** Receives each validated output as it streams (test-set position, text), until the first bad line. */
export type OutputSink = (position: number, text: string) => void;

/** What a whole upload came to once its last byte was read and every line passed. */
export interface UploadSummary {
  format: UploadFormat;
  /** Outputs emitted: one per instance of the test set. */
  count: number;
  /** {@link outputsChecksum} of the outputs in test-set order, computed as they streamed. */
  checksum: string;
}

const LF = 0x0a;

/** A bad line as a validator reports it (an UploadRejection is made only for those named). */
interface LineProblem {
  message: string;
  pointer: UploadRejection['pointer'];
}
const problem = (message: string, pointer: UploadRejection['pointer']): LineProblem => ({ message, pointer });
/** Bytes of checksum text gathered before they go to the hash (UTF-8, as `hash.update` of the strings would encode them). */
const HASH_BUFFER_BYTES = 1 << 16;
/** A character JSON.stringify escapes (quote, backslash, controls; LF separates lines), or CR (stripped before LF). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON.stringify escapes
const NEEDS_JSON_ESCAPE_OR_CR = /["\\\u0000-\u0009\u000b-\u001f]/;

/**
 * Parses and validates an upload as it streams: bytes (or text) in, in any chunking; each output
 * goes to the sink as soon as its line is validated, so the body is never held as one string.
 * The refusals are those of {@link parseUpload}, word for word: every bad line is still named (up
 * to {@link MAX_LINE_PROBLEMS}), the sink just stops at the first. Lines are cut at the LF byte,
 * which never occurs inside a UTF-8 sequence, and decoded strictly a run of whole lines at a time.
 */
export class UploadStream {
  private readonly n: number;
  private format: UploadFormat | undefined;
  /** Lines seen while the format is still unknown (all blank so far). */
  private waiting: string[] = [];
  private line = 0;
  /** Bytes after the last LF so far. */
  private held: Uint8Array[] = [];
  private byteOffset = 0;
  private tail = '';
  private decodedAny = false;
  private sawContent = false;
  private readonly problems: UploadRejection[] = [];
  private bad = 0;
  private emitted = 0;
  /** JSONL: instance id → position, and the line that gave each position (0: none yet). */
  private positionOf: Map<string, number> | null = null;
  private lineOf: Int32Array | null = null;
  private readonly hash = createHash('sha256');
  /**
   * The checksum's text of the last outputs (JSON strings and LFs) as UTF-8, not yet hashed:
   * written here line by line, hashed 64 KiB at a time. Concatenating the JSON strings instead
   * cost 3 µs a line once a line had a non-Latin-1 character (two-byte strings: the concatenation,
   * then its flattening and re-encoding in the hash; issue #28).
   */
  private readonly hashBuffer = Buffer.allocUnsafe(HASH_BUFFER_BYTES);
  private hashed = 0;
  private nextHashed = 0;
  private readonly early = new Map<number, string>();

  constructor(
    private readonly instanceIds: readonly string[],
    format: UploadFormat | undefined,
    private readonly sink: OutputSink = () => undefined,
  ) {
    this.n = instanceIds.length;
    if (format) this.setFormat(format);
  }

  /** The next bytes of the file. @throws UploadRejection on malformed UTF-8 (with its offset and line). */
  pushBytes(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const last = chunk.lastIndexOf(LF);
    if (last === -1) {
      // No line ends here: held (not copied again and again) until one does.
      this.held.push(chunk);
      return;
    }
    const lineBefore = this.line;
    let from = 0;
    if (this.held.length > 0) {
      // Only the line that began in earlier chunks is copied together; the rest is decoded in place.
      from = chunk.indexOf(LF) + 1;
      const first = Buffer.concat([...this.held, chunk.subarray(0, from)]);
      this.held = [];
      this.pushDecoded(this.decode(first, lineBefore), true);
    }
    // The line a malformed byte is on counts from where this chunk's lines began, as one decode of them all would.
    if (from <= last) this.pushDecoded(this.decode(chunk.subarray(from, last + 1), lineBefore + (from > 0 ? 1 : 0)), true);
    this.held = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : [];
  }

  /** The next characters of the file (an upload that arrived as a string: a GraphQL variable). */
  pushText(text: string): void {
    this.pushDecoded(text, false);
  }

  /**
   * The file has ended: the last line, then the checks that need all of it (line count, missing
   * instances). @throws UploadRejection as {@link parseUpload} would.
   */
  end(): UploadSummary {
    if (this.held.length > 0) {
      const rest = Buffer.concat(this.held);
      this.held = [];
      this.pushDecoded(this.decode(rest, this.line), true);
    }
    // One final newline ends the last line; text after it is a line of its own.
    if (this.tail !== '' || this.line === 0) this.takeLine(this.tail.endsWith('\r') ? this.tail.slice(0, -1) : this.tail);
    this.tail = '';
    if (!this.sawContent) throw new UploadRejection('the file is empty');
    const format = this.format ?? 'text';
    if (format === 'text' && this.line !== this.n) {
      const hint = this.line > this.n ? ` (line ${this.n + 1} is the first extra one)` : '';
      throw new UploadRejection(
        `expected ${this.n} lines (one per instance, in test-set order), got ${this.line}${hint}`,
        this.line > this.n ? { line: this.n + 1 } : { instanceId: this.instanceIds[this.line] },
      );
    }
    if (this.bad > 0) throw refuseLines(this.problems, this.bad);
    if (format === 'jsonl') {
      const lineOf = this.lineOf ?? new Int32Array(0);
      const missing: string[] = [];
      for (let p = 0; p < this.n; p++) if (lineOf[p] === 0) missing.push(this.instanceIds[p] ?? '');
      if (missing.length > 0) {
        throw new UploadRejection(`${missing.length} of ${this.n} instances have no output: ${quoteList(missing, missing.length)}`, { instanceId: missing[0] });
      }
    }
    if (this.nextHashed !== this.n) throw new Error(`checksummed ${this.nextHashed} of ${this.n} outputs`);
    this.flushHash();
    return { format, count: this.emitted, checksum: this.hash.digest('hex') };
  }

  /**
   * Strict UTF-8 of whole lines; `lineBefore`: lines before the first of them, for the refusal.
   * Checked (`isUtf8`, what the fatal TextDecoder accepts), then decoded by Buffer: together a
   * third of the fatal TextDecoder's time on ASCII text.
   */
  private decode(bytes: Uint8Array, lineBefore: number): string {
    if (isUtf8(bytes)) {
      this.byteOffset += bytes.length;
      return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('utf8');
    }
    const at = Math.max(firstInvalidUtf8Offset(bytes), 0);
    let line = lineBefore + 1;
    for (let i = 0; i < at; i++) if (bytes[i] === LF) line++;
    const offset = this.byteOffset + at;
    throw new UploadRejection(`the file is not valid UTF-8: malformed byte at offset ${offset} (line ${line})`, { line, byteOffset: offset });
  }

  /**
   * Takes the whole lines of `text` (the rest waits for the next). `decoded`: it came from
   * strict UTF-8, which cannot hold a lone surrogate, so a run without NUL has nothing
   * unstorable and its lines skip that check. TEXT lines that need no JSON escaping and no CR
   * stripping, all in order with nothing refused yet, are checksummed as one run.
   */
  private pushDecoded(text: string, decoded: boolean): void {
    if (text === '') return;
    if (!this.decodedAny) {
      this.decodedAny = true;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    const storable = decoded && this.tail === '' && !text.includes('\0');
    const lines = (this.tail + text).split('\n');
    this.tail = lines.pop() ?? '';
    if (
      storable && this.format === 'text' && this.sawContent && this.bad === 0 && this.nextHashed === this.line && this.early.size === 0 &&
      this.line + lines.length <= this.n && !NEEDS_JSON_ESCAPE_OR_CR.test(text)
    ) {
      for (const l of lines) {
        const position = this.line++;
        this.emitted++;
        this.sink(position, l);
      }
      // JSON.stringify of each is the line in quotes: the checksum's text of the run at once.
      if (lines.length > 0) {
        this.flushHash();
        this.hash.update(`"${lines.join('"\n"')}"\n`);
        this.nextHashed += lines.length;
      }
      return;
    }
    for (const l of lines) this.takeLine(l.endsWith('\r') ? l.slice(0, -1) : l, storable);
  }

  private setFormat(format: UploadFormat): void {
    this.format = format;
    if (format === 'jsonl') {
      this.positionOf = new Map(this.instanceIds.map((id, p) => [id, p]));
      this.lineOf = new Int32Array(this.n);
    }
  }

  private takeLine(raw: string, storable = false): void {
    if (!this.sawContent && /\S/.test(raw)) {
      this.sawContent = true;
      if (this.n === 0) throw new UploadRejection('the phase has no test set to submit against yet');
    }
    if (this.format === undefined) {
      const first = /\S/.exec(raw);
      if (!first) {
        this.waiting.push(raw);
        return;
      }
      this.setFormat(first[0] === '{' ? 'jsonl' : 'text');
      const waiting = this.waiting;
      this.waiting = [];
      for (const w of waiting) this.takeLine(w, storable);
    }
    const line = ++this.line;
    const problem = this.format === 'jsonl' ? this.jsonlLine(raw, line) : this.textLine(raw, line, storable);
    if (problem) {
      // Only the named ones become errors: a file of a million bad lines costs no million stack traces.
      if (this.problems.length < MAX_LINE_PROBLEMS) this.problems.push(new UploadRejection(problem.message, problem.pointer));
      this.bad++;
    }
  }

  private textLine(text: string, line: number, storable: boolean): LineProblem | undefined {
    if (line > this.n) return undefined; // counted: the refusal names the first extra line
    const bad = storable ? null : findUnstorable(text);
    if (bad) {
      const instanceId = this.instanceIds[line - 1] ?? '';
      return problem(`line ${line} (instance '${instanceId}') ${bad.reason} (character ${bad.index + 1})`, { line, instanceId });
    }
    this.emit(line - 1, text);
    return undefined;
  }

  private jsonlLine(raw: string, line: number): LineProblem | undefined {
    if (raw.trim() === '') return undefined; // blank lines between records carry nothing
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch (e) {
      return problem(`line ${line}: not valid JSON (${e instanceof Error ? e.message : String(e)})`, { line });
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      return problem(`line ${line}: expected a JSON object {"id": …, "output": …}, got ${describe(record)}`, { line });
    }
    const { id, output } = record as Record<string, unknown>;
    if (id === undefined) return problem(`line ${line}: missing "id"`, { line });
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) {
      return problem(`line ${line}: "id" must be a string, got ${describe(id)}`, { line });
    }
    const instanceId = String(id);
    const badId = findUnstorable(instanceId);
    if (badId) return problem(`line ${line}: "id" ${badId.reason}`, { line });
    const position = this.positionOf?.get(instanceId);
    const lineOf = this.lineOf;
    if (position === undefined || !lineOf) {
      return problem(`line ${line}: unknown instance id '${instanceId}' (not in the phase's test set)`, { line, instanceId });
    }
    const previous = lineOf[position] ?? 0;
    if (previous !== 0) return problem(`line ${line}: duplicate instance id '${instanceId}' (also on line ${previous})`, { line, instanceId });
    if (output === undefined) return problem(`line ${line} (instance '${instanceId}'): missing "output"`, { line, instanceId });
    if (typeof output !== 'string') {
      return problem(`line ${line} (instance '${instanceId}'): "output" must be a string, got ${describe(output)}`, { line, instanceId });
    }
    const unstorable = findUnstorable(output);
    if (unstorable) return problem(`line ${line} (instance '${instanceId}'): "output" ${unstorable.reason} (character ${unstorable.index + 1})`, { line, instanceId });
    lineOf[position] = line;
    this.emit(position, output);
    return undefined;
  }

  /** Hands a validated output on, and folds it into the checksum in test-set order. */
  private emit(position: number, text: string): void {
    if (this.bad > 0) return; // refused anyway: nothing more is written or summed
    this.emitted++;
    this.sink(position, text);
    if (position !== this.nextHashed) {
      this.early.set(position, text);
      return;
    }
    this.hashOne(text);
    for (let t = this.early.get(this.nextHashed); t !== undefined; t = this.early.get(this.nextHashed)) {
      this.early.delete(this.nextHashed);
      this.hashOne(t);
    }
  }

  private hashOne(text: string): void {
    const json = JSON.stringify(text);
    this.nextHashed++;
    // A UTF-16 unit takes at most 3 bytes of UTF-8 (Buffer.write cuts off what does not fit).
    const room = 3 * json.length + 1;
    if (this.hashed + room > HASH_BUFFER_BYTES) {
      this.flushHash();
      if (room > HASH_BUFFER_BYTES) {
        this.hash.update(json + '\n');
        return;
      }
    }
    this.hashed += this.hashBuffer.write(json, this.hashed);
    this.hashBuffer[this.hashed++] = LF;
  }

  private flushHash(): void {
    if (this.hashed === 0) return;
    this.hash.update(this.hashBuffer.subarray(0, this.hashed));
    this.hashed = 0;
  }
}

/**
 * Parses and validates a whole upload against the test set's instance ids (in test-set order):
 * {@link UploadStream} over one chunk.
 * @throws UploadRejection naming the line and instance at fault.
 */
export function parseUpload(input: Uint8Array | string, instanceIds: readonly string[], format?: UploadFormat): ParsedUpload {
  const texts = new Array<string>(instanceIds.length);
  const stream = new UploadStream(instanceIds, format, (position, text) => {
    texts[position] = text;
  });
  if (typeof input === 'string') stream.pushText(input);
  else stream.pushBytes(input);
  const summary = stream.end();
  return { format: summary.format, outputs: instanceIds.map((instanceId, p) => ({ instanceId, text: texts[p] ?? '' })) };
}
