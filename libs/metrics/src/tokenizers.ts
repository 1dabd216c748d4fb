/**
 * sacreBLEU 2.x word tokenizers for BLEU: `13a`, `intl`, `zh`, `char`, `none`.
 * Each reproduces the Python original (sacrebleu/tokenizers/*.py), including its quirks,
 * and returns the tokenized line as one string with single spaces between tokens.
 */
import { codePoints, isPyWhitespace, pySplit, pyStrip } from './text';

/** Names of the BLEU tokenizers this library implements. */
export const BLEU_TOKENIZERS = ['13a', 'intl', 'zh', 'char', 'none'] as const;
/** A BLEU tokenizer name as sacreBLEU spells it in `--tokenize` and in signatures. */
export type BleuTokenizerName = (typeof BLEU_TOKENIZERS)[number];

/** True when `name` is one of {@link BLEU_TOKENIZERS}. Example: `isBleuTokenizerName('intl')` → true. */
export function isBleuTokenizerName(name: string): name is BleuTokenizerName {
  return (BLEU_TOKENIZERS as readonly string[]).includes(name);
}

// mteval-v13a's Western rules, as sacrebleu/tokenizers/tokenizer_re.py applies them.
// Class: { | } ~  [ \ ] ^ _ `  space ! " # $ % &  ( ) * +  : ; < = > ? @  /
const RE_PUNCT = /([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])/g;
const RE_PERIOD_COMMA_UNLESS_PRECEDED_BY_DIGIT = /([^0-9])([.,])/g;
const RE_PERIOD_COMMA_UNLESS_FOLLOWED_BY_DIGIT = /([.,])([^0-9])/g;
const RE_DASH_AFTER_DIGIT = /([0-9])(-)/g;

/**
 * sacreBLEU's `TokenizerRegexp`: the language-dependent part of mteval-v13a
 * (punctuation, period/comma not next to a digit, dash after a digit), then
 * `' '.join(line.split())`.
 * Example: `tokenizeRegexp('a,b 1,000.')` → `'a , b 1,000.'`.
 */
export function tokenizeRegexp(line: string): string {
  return pySplit(regexpRules(line)).join(' ');
}

function regexpRules(line: string): string {
  line = line.replace(RE_PUNCT, ' $1 ');
  line = line.replace(RE_PERIOD_COMMA_UNLESS_PRECEDED_BY_DIGIT, '$1 $2 ');
  line = line.replace(RE_PERIOD_COMMA_UNLESS_FOLLOWED_BY_DIGIT, ' $1 $2');
  return line.replace(RE_DASH_AFTER_DIGIT, '$1 $2 ');
}

/**
 * sacreBLEU's default `13a` tokenizer (mteval-v13a.pl): drops `<skipped>`, joins
 * hyphenated line breaks, unescapes `&quot; &amp; &lt; &gt;` (in that order), pads the
 * line with spaces and applies {@link tokenizeRegexp}.
 * Example: `tokenize13a('Hello, "world".')` → `'Hello , " world " .'`.
 */
export function tokenize13a(line: string): string {
  return pySplit(regexpRules(unescape13a(line))).join(' ');
}

/** Token spans of one line: token k is `text.slice(starts[k], ends[k])` for k < count. */
export interface TokenSpans {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
  count: number;
}

/** Characters 13a's first rule surrounds with spaces (RE_PUNCT), by UTF-16 unit below 0x80. */
const PUNCT_13A = new Uint8Array(0x80);
for (let c = 0; c < 0x80; c++) {
  PUNCT_13A[c] = (c >= 0x7b && c <= 0x7e) || (c >= 0x5b && c <= 0x60) || (c >= 0x20 && c <= 0x26) || (c >= 0x28 && c <= 0x2b) || (c >= 0x3a && c <= 0x40) || c === 0x2f ? 1 : 0;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * The tokens of {@link tokenize13a} as spans of the unescaped, padded line, found in one scan
 * instead of four regular-expression passes and a split; `spans.starts`/`ends` must hold at
 * least `line.length + 2` entries. Every inserted space of the passes becomes a token boundary:
 * - RE_PUNCT: a boundary on both sides of each of its characters;
 * - `([^0-9])([.,])`: a period or comma is split when the unit before it is no digit and not
 *   itself a period or comma consumed by the previous match (matches do not overlap, so in
 *   `a..` only the first period matches);
 * - `([.,])([^0-9])`: a period or comma is split when it was split before (a space follows it)
 *   or the next unit is no digit (RE_PUNCT characters and periods/commas already split are
 *   followed by a space, also no digit); the end of the string is no match;
 * - `([0-9])(-)`: a dash right after a digit is split (no earlier rule puts a space between them).
 * Then Python whitespace separates tokens, as `split()` does. spec: tokenizers.spec.ts checks
 * this against the regular expressions on random strings.
 */
export function spans13a(line: string, spans: TokenSpans): void {
  const text = unescape13a(line);
  const { starts, ends } = spans;
  const n = text.length;
  let count = 0;
  let start = -1; // start of the open token, −1 when none
  let prevSplitByRule2 = false; // the previous unit is a period/comma matched by ([^0-9])([.,])
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let isolate = false;
    let splitByRule2 = false;
    if (isPyWhitespace(c)) {
      if (start >= 0) {
        starts[count] = start;
        ends[count++] = i;
        start = -1;
      }
      prevSplitByRule2 = false;
      continue;
    }
    if (c < 0x80 && PUNCT_13A[c] === 1) {
      isolate = true;
    } else if (c === 0x2e || c === 0x2c) {
      splitByRule2 = i > 0 && !isDigit(text.charCodeAt(i - 1)) && !prevSplitByRule2;
      isolate = splitByRule2 || (i + 1 < n && !isDigit(text.charCodeAt(i + 1)));
    } else if (c === 0x2d) {
      isolate = i > 0 && isDigit(text.charCodeAt(i - 1));
    }
    if (isolate) {
      if (start >= 0) {
        starts[count] = start;
        ends[count++] = i;
      }
      starts[count] = i;
      ends[count++] = i + 1;
      start = -1;
    } else if (start < 0) {
      start = i;
    }
    prevSplitByRule2 = splitByRule2;
  }
  if (start >= 0) {
    starts[count] = start;
    ends[count++] = n;
  }
  spans.text = text;
  spans.count = count;
}

/** 13a's language-independent part, with the padding spaces. */
function unescape13a(line: string): string {
  if (line.includes('<skipped>')) line = line.replaceAll('<skipped>', '');
  if (line.includes('\n')) line = line.replaceAll('-\n', '').replaceAll('\n', ' ');
  if (line.includes('&')) {
    line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  }
  return ` ${line} `;
}

const RE_INTL_NONDIGIT_PUNCT = /(\P{N})(\p{P})/gu;
const RE_INTL_PUNCT_NONDIGIT = /(\p{P})(\P{N})/gu;
const RE_INTL_SYMBOL = /(\p{S})/gu;

/**
 * sacreBLEU's `intl` tokenizer (mteval-v14 international): splits Unicode punctuation
 * (`\p{P}`) unless it sits between digits, and every symbol (`\p{S}`).
 * A number followed by a final period keeps it, as in mteval-v14 (no padding).
 * Example: `tokenizeIntl('Preis: 1.000€.')` → `'Preis : 1.000 € .'`.
 */
export function tokenizeIntl(line: string): string {
  line = line.replace(RE_INTL_NONDIGIT_PUNCT, '$1 $2 ');
  line = line.replace(RE_INTL_PUNCT_NONDIGIT, ' $1 $2');
  line = line.replace(RE_INTL_SYMBOL, ' $1 ');
  return pySplit(line).join(' ');
}

/**
 * Code-point ranges sacreBLEU's `zh` tokenizer treats as Chinese. The two supplementary
 * ranges are written in Python as `'\u20000'` and `'\u2f800'`, i.e. a BMP character plus a
 * digit, and compared as strings; the effective ranges are therefore U+2001–U+2A6D and
 * U+2F81–U+2FA1 (covering general punctuation, arrows, maths symbols…). We reproduce that.
 */
const ZH_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x3400, 0x4db5],
  [0x4e00, 0x9fa5],
  [0x9fa6, 0x9fbb],
  [0xf900, 0xfa2d],
  [0xfa30, 0xfa6a],
  [0xfa70, 0xfad9],
  [0x2001, 0x2a6d], // Python: '\u2000' + '0' <= c <= '\u2a6d' + '6'
  [0x2f81, 0x2fa1], // Python: '\u2f80' + '0' <= c <= '\u2fa1' + 'd'
  [0xff00, 0xffef],
  [0x2e80, 0x2eff],
  [0x3000, 0x303f],
  [0x31c0, 0x31ef],
  [0x2f00, 0x2fdf],
  [0x2ff0, 0x2fff],
  [0x3100, 0x312f],
  [0x31a0, 0x31bf],
  [0xfe10, 0xfe1f],
  [0xfe30, 0xfe4f],
  [0x2600, 0x26ff],
  [0x2700, 0x27bf],
  [0x3200, 0x32ff],
  [0x3300, 0x33ff],
];

/** True when sacreBLEU's `zh` tokenizer isolates code point `cp` (see ZH_RANGES). */
export function isZhChar(cp: number): boolean {
  if (cp < 0x2001 || cp > 0xffef) return false;
  for (const [lo, hi] of ZH_RANGES) if (cp >= lo && cp <= hi) return true;
  return false;
}

/**
 * sacreBLEU's `zh` tokenizer: strips the line, surrounds every "Chinese" code point
 * (see {@link isZhChar}) with spaces, then applies {@link tokenizeRegexp} — without the
 * 13a padding or entity unescaping.
 * Example: `tokenizeZh('我爱北京。ok')` → `'我 爱 北 京 。 ok'`.
 */
export function tokenizeZh(line: string): string {
  line = pyStrip(line);
  let out = '';
  let plainFrom = 0;
  let i = 0;
  for (const ch of line) {
    const cp = ch.codePointAt(0) as number;
    if (isZhChar(cp)) {
      out += line.slice(plainFrom, i) + ' ' + ch + ' ';
      plainFrom = i + ch.length;
    }
    i += ch.length;
  }
  out += line.slice(plainFrom);
  return tokenizeRegexp(out);
}

/**
 * sacreBLEU's `char` tokenizer: every code point becomes a token (whitespace disappears).
 * Combining marks are separate tokens, as in Python.
 * Example: `tokenizeChar('ab c')` → `'a b c'`.
 */
export function tokenizeChar(line: string): string {
  const cps = codePoints(line);
  const parts: string[] = [];
  for (const cp of cps) parts.push(String.fromCodePoint(cp));
  return pySplit(parts.join(' ')).join(' ');
}

/** sacreBLEU's `none` tokenizer: returns the line unchanged. */
export function tokenizeNone(line: string): string {
  return line;
}

/**
 * The tokens sacreBLEU's BLEU gets from `name` (the tokenizer, then `split()`), without
 * building the joined string. Example: `getBleuTokenSplitter('13a')('a,b')` → `['a', ',', 'b']`.
 */
export function getBleuTokenSplitter(name: BleuTokenizerName): (line: string) => string[] {
  if (name === '13a') return (line) => pySplit(regexpRules(unescape13a(line)));
  const tok = getBleuTokenizer(name);
  return (line) => pySplit(tok(line));
}

/**
 * The tokenized line of `name` before `split()`: what {@link getBleuTokenSplitter} splits, for
 * callers that scan the tokens in place (BLEU's statistics). 13a skips the joining of
 * {@link tokenize13a}, since splitting again gives the same tokens.
 */
export function getBleuTokenizedLine(name: BleuTokenizerName): (line: string) => string {
  if (name === '13a') return (line) => regexpRules(unescape13a(line));
  return getBleuTokenizer(name);
}

/** The tokenizer function sacreBLEU registers under `name`. Example: `getBleuTokenizer('char')('ab')` → `'a b'`. */
export function getBleuTokenizer(name: BleuTokenizerName): (line: string) => string {
  switch (name) {
    case '13a':
      return tokenize13a;
    case 'intl':
      return tokenizeIntl;
    case 'zh':
      return tokenizeZh;
    case 'char':
      return tokenizeChar;
    case 'none':
      return tokenizeNone;
  }
}
