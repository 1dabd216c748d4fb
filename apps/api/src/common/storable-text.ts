import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { InvalidInputError } from '@podium/domain';

/** Where and why a string cannot be stored in a PostgreSQL text column. */
export interface UnstorableText {
  /** UTF-16 index of the offending character. */
  index: number;
  /** 1-based line of it (lines split at \n). */
  line: number;
  reason: string;
}

/**
 * PostgreSQL text (UTF-8) cannot hold U+0000, and a lone UTF-16 surrogate (U+D800–U+DFFF not
 * in a pair, e.g. from a JSON `\ud800` escape) has no UTF-8 form: both are refused at the
 * edge, never escaped, so what is stored is exactly what was sent.
 */
export function findUnstorable(text: string): UnstorableText | null {
  // Most text has neither: one native scan instead of a loop over its characters.
  if (!MAYBE_UNSTORABLE.test(text)) return null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return at(text, i, 'a NUL character (U+0000)');
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return at(text, i, `a lone UTF-16 surrogate (\\u${c.toString(16)})`);
    }
    if (c >= 0xdc00 && c <= 0xdfff) return at(text, i, `a lone UTF-16 surrogate (\\u${c.toString(16)})`);
  }
  return null;
}

// eslint-disable-next-line no-control-regex -- NUL is what it looks for
const MAYBE_UNSTORABLE = /[\u0000\ud800-\udfff]/;

function at(text: string, index: number, what: string): UnstorableText {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return { index, line, reason: `contains ${what}, which cannot be stored` };
}

const MAX_DEPTH = 32;

/**
 * Walks strings, arrays and plain objects (GraphQL inputs, JSON bodies, form fields) and throws
 * an InvalidInputError naming the field, and the line when the text has several, at the first
 * string that cannot be stored. Keys are checked as well as values.
 */
export function assertStorable(value: unknown, field: string, depth = 0): void {
  if (typeof value === 'string') {
    const bad = findUnstorable(value);
    if (bad) {
      const where = value.includes('\n') ? ` on line ${bad.line}` : '';
      throw new InvalidInputError(`${field}${where} ${bad.reason} (character ${bad.index + 1})`, { field, ...(where ? { line: bad.line } : {}) });
    }
    return;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
  if (ArrayBuffer.isView(value) || value instanceof Date) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertStorable(v, `${field}.${i}`, depth + 1));
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    assertStorable(k, `${field} (a key)`, depth + 1);
    assertStorable(v, `${field}.${k}`, depth + 1);
  }
}

/**
 * Global pipe: every argument of every resolver and controller (GraphQL args, REST bodies,
 * params, queries, form fields) passes {@link assertStorable}, so a field added later is covered
 * without opting in. Uploaded file contents are checked by the upload parser, line by line.
 */
@Injectable()
export class StorableTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom' && !metadata.data) return value;
    assertStorable(value, metadata.data ?? metadata.type);
    return value;
  }
}
