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

function parseJsonl(lines: string[], instanceIds: readonly string[]): ParsedUpload['outputs'] {
  const known = new Set(instanceIds);
  const lineOf = new Map<string, number>();
  const textOf = new Map<string, string>();
  const problems: UploadRejection[] = [];
  let bad = 0;
  function parseJsonlLine(raw: string, line: number): void {
    if (raw.trim() === '') return; // blank lines between records carry nothing
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch (e) {
      throw new UploadRejection(`line ${line}: not valid JSON (${e instanceof Error ? e.message : String(e)})`, { line });
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      throw new UploadRejection(`line ${line}: expected a JSON object {"id": …, "output": …}, got ${describe(record)}`, { line });
    }
    const { id, output } = record as Record<string, unknown>;
    if (id === undefined) throw new UploadRejection(`line ${line}: missing "id"`, { line });
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) {
      throw new UploadRejection(`line ${line}: "id" must be a string, got ${describe(id)}`, { line });
    }
    const instanceId = String(id);
    const badId = findUnstorable(instanceId);
    if (badId) throw new UploadRejection(`line ${line}: "id" ${badId.reason}`, { line });
    if (!known.has(instanceId)) {
      throw new UploadRejection(`line ${line}: unknown instance id '${instanceId}' (not in the phase's test set)`, { line, instanceId });
    }
    const previous = lineOf.get(instanceId);
    if (previous !== undefined) {
      throw new UploadRejection(`line ${line}: duplicate instance id '${instanceId}' (also on line ${previous})`, { line, instanceId });
    }
    if (output === undefined) throw new UploadRejection(`line ${line} (instance '${instanceId}'): missing "output"`, { line, instanceId });
    if (typeof output !== 'string') {
      throw new UploadRejection(`line ${line} (instance '${instanceId}'): "output" must be a string, got ${describe(output)}`, {
        line,
        instanceId,
      });
    }
    const unstorable = findUnstorable(output);
    if (unstorable) throw new UploadRejection(`line ${line} (instance '${instanceId}'): "output" ${unstorable.reason} (character ${unstorable.index + 1})`, { line, instanceId });
    lineOf.set(instanceId, line);
    textOf.set(instanceId, output);
  }
  lines.forEach((raw, index) => {
    try {
      parseJsonlLine(raw, index + 1);
    } catch (e) {
      if (!(e instanceof UploadRejection)) throw e;
      if (problems.length < MAX_LINE_PROBLEMS) problems.push(e);
      bad++;
    }
  });
  if (bad > 0) throw refuseLines(problems, bad);
  const outputs: ParsedUpload['outputs'] = [];
  const missing: string[] = [];
  for (const id of instanceIds) {
    const text = textOf.get(id);
    if (text === undefined) missing.push(id);
    else outputs.push({ instanceId: id, text });
  }
  if (missing.length > 0) {
    throw new UploadRejection(`${missing.length} of ${instanceIds.length} instances have no output: ${quoteList(missing, missing.length)}`, {
      instanceId: missing[0],
    });
  }
  return outputs;
}

function parseText(lines: string[], instanceIds: readonly string[]): ParsedUpload['outputs'] {
  if (lines.length !== instanceIds.length) {
    const hint = lines.length > instanceIds.length ? ` (line ${instanceIds.length + 1} is the first extra one)` : '';
    throw new UploadRejection(
      `expected ${instanceIds.length} lines (one per instance, in test-set order), got ${lines.length}${hint}`,
      lines.length > instanceIds.length ? { line: instanceIds.length + 1 } : { instanceId: instanceIds[lines.length] },
    );
  }
  const problems: UploadRejection[] = [];
  let badLines = 0;
  const outputs = instanceIds.map((instanceId, k) => {
    const text = lines[k];
    if (text === undefined) throw new Error(`line ${k + 1} is missing although the line count matched`);
    const bad = findUnstorable(text);
    if (bad) {
      if (problems.length < MAX_LINE_PROBLEMS) problems.push(new UploadRejection(`line ${k + 1} (instance '${instanceId}') ${bad.reason} (character ${bad.index + 1})`, { line: k + 1, instanceId }));
      badLines++;
    }
    return { instanceId, text };
  });
  if (badLines > 0) throw refuseLines(problems, badLines);
  return outputs;
}

/**
 * Parses and validates an upload against the test set's instance ids (in test-set order).
 * @throws UploadRejection naming the line and instance at fault.
 */
export function parseUpload(input: Uint8Array | string, instanceIds: readonly string[], format?: UploadFormat): ParsedUpload {
  let text = decodeUtf8(input);
  if (text.startsWith(BOM)) text = text.slice(1);
  if (text.trim() === '') throw new UploadRejection('the file is empty');
  if (instanceIds.length === 0) throw new UploadRejection('the phase has no test set to submit against yet');
  const chosen = format ?? detectFormat(text);
  const lines = splitLines(text);
  const outputs = chosen === 'jsonl' ? parseJsonl(lines, instanceIds) : parseText(lines, instanceIds);
  return { format: chosen, outputs };
}
