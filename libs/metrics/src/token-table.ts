/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * Word tokens to small integer ids without a `Map<string, number>` and without cutting the
 * tokens out of their line: a token is a span [start, end) of a string, hashed over its UTF-16
 * code units into an open-addressing table and compared unit by unit with the first occurrence,
 * so equal ids mean equal strings. Ids are valid within one segment (between two
 * {@link beginTokenIds} calls); the table is module-level scratch reused across segments, with a
 * stamp marking the entries of the current segment.
 */
import { isPyWhitespace } from './text';

// Math.imul held in a module constant: tokenId hashes every character of every token, and a
// global lookup inside a vm context (Jest runs every spec in one) is a slow interceptor call
// each time. Plain Node is unaffected.
const { imul } = Math;

let capacity = 0;
let mask = 0;
let entryStamp = new Int32Array(0);
let entryHash = new Int32Array(0);
let entryId = new Int32Array(0);
let entryStart = new Int32Array(0);
let entryLen = new Int32Array(0);
let entryText: string[] = [];
let stamp = 0;
let count = 0;

function allocate(cap: number): void {
  capacity = cap;
  mask = cap - 1;
  entryStamp = new Int32Array(cap);
  entryHash = new Int32Array(cap);
  entryId = new Int32Array(cap);
  entryStart = new Int32Array(cap);
  entryLen = new Int32Array(cap);
  entryText = new Array<string>(cap).fill('');
  stamp = 0;
}

/** Starts a segment: every token id handed out before is forgotten. */
export function beginTokenIds(): void {
  if (capacity === 0) allocate(1024);
  stamp++;
  if (stamp === 0x7fffffff) {
    entryStamp.fill(0);
    stamp = 1;
  }
  count = 0;
}

/** Doubles the table, re-inserting the current segment's entries (a long segment). */
function grow(): void {
  const old = { entryStamp, entryHash, entryId, entryStart, entryLen, entryText, stamp };
  allocate(capacity * 2);
  stamp = 1;
  for (let s = 0; s < old.entryStamp.length; s++) {
    if (old.entryStamp[s] !== old.stamp) continue;
    let t = old.entryHash[s]! & mask;
    while (entryStamp[t] === stamp) t = (t + 1) & mask;
    entryStamp[t] = stamp;
    entryHash[t] = old.entryHash[s]!;
    entryId[t] = old.entryId[s]!;
    entryStart[t] = old.entryStart[s]!;
    entryLen[t] = old.entryLen[s]!;
    entryText[t] = old.entryText[s]!;
  }
}

function sameSpan(a: string, aStart: number, b: string, bStart: number, len: number): boolean {
  if (a === b && aStart === bStart) return true;
  for (let k = 0; k < len; k++) if (a.charCodeAt(aStart + k) !== b.charCodeAt(bStart + k)) return false;
  return true;
}

/**
 * Id (1, 2, …, in order of first appearance in the segment) of the token `text[start, end)`.
 * Example: after `beginTokenIds()`, `tokenId('a b a', 0, 1)` → 1, `tokenId('a b a', 2, 3)` → 2,
 * `tokenId('a b a', 4, 5)` → 1.
 */
export function tokenId(text: string, start: number, end: number): number {
  if (2 * (count + 1) > capacity) grow();
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = imul(h ^ text.charCodeAt(k), 0x01000193);
  h ^= h >>> 15;
  h = imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  const len = end - start;
  let s = h & mask;
  for (;;) {
    if (entryStamp[s] !== stamp) {
      entryStamp[s] = stamp;
      entryHash[s] = h;
      entryStart[s] = start;
      entryLen[s] = len;
      entryText[s] = text;
      count++;
      entryId[s] = count;
      return count;
    }
    if (entryHash[s] === h && entryLen[s] === len && sameSpan(entryText[s]!, entryStart[s]!, text, start, len)) return entryId[s]!;
    s = (s + 1) & mask;
  }
}

/** Number of distinct tokens seen in the current segment. */
export function tokenIdCount(): number {
  return count;
}

/**
 * Writes the ids of the tokens of Python's `line.split()` into `out` (at least as long as the
 * number of tokens; `line.length` always suffices) and returns how many, without creating
 * the token strings.
 */
export function whitespaceTokenIds(line: string, out: Int32Array): number {
  let len = 0;
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWhitespace(line.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isPyWhitespace(line.charCodeAt(i))) i++;
    out[len++] = tokenId(line, start, i);
  }
  return len;
}
