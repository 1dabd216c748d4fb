/**
 * String helpers that reproduce Python 3 `str` semantics the reference implementations rely on
 * (`str.split()`, `str.strip()`, iteration by code point).
 */

/** Code points Python's `str.isspace()` accepts (bidi WS/B/S or category Zs). */
const PY_WHITESPACE = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Lookup for code units below 0x3001 (covers every Python whitespace character). */
const WS_TABLE = new Uint8Array(0x3001);
for (const c of PY_WHITESPACE) WS_TABLE[c] = 1;

/** True when the UTF-16 code unit `c` is whitespace for Python's `str.isspace()`. */
export function isPyWhitespace(c: number): boolean {
  return c < 0x3001 && WS_TABLE[c] === 1;
}

/**
 * Python's `s.split()` without arguments: splits on runs of Unicode whitespace and drops
 * empty pieces. Example: `pySplit(' a\u00a0 b ')` → `['a', 'b']`.
 */
export function pySplit(s: string): string[] {
  const out: string[] = [];
  const n = s.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x3001 && WS_TABLE[c] === 1) {
      if (start >= 0) {
        out.push(s.slice(start, i));
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) out.push(start === 0 ? s : s.slice(start));
  return out;
}

/** Python's `s.rstrip()`: removes trailing Unicode whitespace. Example: `pyRstrip('a \u3000')` → `'a'`. */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Python's `s.strip()`: removes leading and trailing Unicode whitespace. Example: `pyStrip('\u00a0a ')` → `'a'`. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (end > 0 && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Python's `''.join(s.split())`: the string with all Unicode whitespace removed. */
export function removeWhitespace(s: string): string {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    if (isPyWhitespace(s.charCodeAt(i))) return pySplit(s).join('');
  }
  return s;
}

/** True when `s` contains a UTF-16 surrogate (a code point above U+FFFF). */
export function hasSurrogates(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

/** The code points of `s` (what Python iterates over and indexes by). */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  if (!hasSurrogates(s)) {
    for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
    return out;
  }
  for (const ch of s) out.push(ch.codePointAt(0) as number);
  return out;
}
