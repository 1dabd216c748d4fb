// The stored form of a leaderboard: the JSON `leaderboard.json` serves (the GraphQL object, enums
// by their GraphQL names), precompressed, with a strong ETag.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { PairedTest, PValueCorrection, type ComputedLeaderboard, type Leaderboard, type PairTestResult } from './leaderboard.types';
import { PAIRED_TESTS } from './ranking.adapter';
import { encodePairTile, pairsApartOf, PAIR_TILE, tilePairs, type PairsApart, type PairTile } from './pair-tiles';

function enumName(values: Record<string, string>, value: string): string {
  return Object.entries(values).find(([, v]) => v === value)?.[0] ?? value;
}
function enumValue<E extends Record<string, string>>(values: E, name: unknown): E[keyof E] {
  const v = (values as Record<string, string>)[String(name)];
  if (v === undefined) throw new Error(`stored leaderboard: unknown value ${String(name)}`);
  return v as E[keyof E];
}

/**
 * The leaderboard exactly as GraphQL returns it when every field is selected (enums by their
 * GraphQL names). `pairs` is the last key, so a reader that needs the systems only can cut the
 * pairs off the stored text without parsing them ({@link parseLeaderboardDocumentLazily}).
 */
export function leaderboardJson(board: Leaderboard, pairsApart: PairsApart | null = null): Record<string, unknown> {
  const { pairs, ...rest } = board;
  return {
    ...rest,
    test: enumName(PairedTest, board.test),
    correction: enumName(PValueCorrection, board.correction),
    computedAt: board.computedAt ? board.computedAt.toISOString() : null,
    // Only on a board whose pairs are stored apart (pair-tiles.ts): the pairs are then empty here.
    ...(pairsApart ? { pairsApart } : {}),
    pairs: pairsApart ? [] : pairs,
  };
}

/** Where a stored document's top-level pairs begin: the key is the last one (leaderboardJson). */
const PAIRS_KEY = Buffer.from(',"pairs":[', 'utf8');
/** How far into a stored document {@link storedBoardMetric} looks for its first two keys. */
const METRIC_PREFIX_BYTES = 4096;

/**
 * {@link parseLeaderboardDocument} of a stored document's UTF-8 bytes, decoding and parsing the
 * pairs only when `pairs` is first read (a getter that parses and keeps them): a GraphQL query of
 * the systems of a 100-system board decodes and parses its 40 KB of systems, not the 3 MB of pairs
 * (issue #28: decoding the whole document took the api's event loop 13 ms a board idle, 75 ms
 * while a worker recomputed beside it). Documents with the pairs elsewhere (stored before) are
 * parsed whole. The top-level key is found by its last occurrence: inside the pairs no key is
 * named `pairs`, and a quote inside a JSON string is always escaped (no byte of a multi-byte UTF-8
 * character is ASCII, so the bytes are searched as the text would be).
 */
export function parseLeaderboardDocumentLazily(body: Uint8Array): Leaderboard {
  const bytes = asBuffer(body);
  const split = splitStoredDocument(bytes);
  if (!split) return parseLeaderboardDocument(bytes.toString('utf8'));
  const head = boardFromRaw(split.head);
  let pairs: Leaderboard['pairs'] | undefined;
  return Object.defineProperty(head, 'pairs', {
    enumerable: true,
    configurable: true,
    get: () => (pairs ??= JSON.parse(bytes.toString('utf8', split.pairsFrom, split.pairsTo)) as Leaderboard['pairs']),
  });
}

/**
 * The metric of a stored document, read off its first two keys as computeLeaderboard writes
 * them (`{"phaseId":"…","metric":"…"`) without decoding or parsing the rest: the api names a
 * download by it (parsing a 100-system board for its name took the api's event loop 0.2–0.3 s;
 * issue #28). Null when the document does not begin so within its first 4 KB; the caller then
 * parses it.
 */
export function storedBoardMetric(body: Uint8Array): string | null {
  const bytes = asBuffer(body);
  const m = /^\{"phaseId":"[^"\\]*","metric":("(?:[^"\\]|\\.)*")/.exec(bytes.toString('utf8', 0, Math.min(bytes.length, METRIC_PREFIX_BYTES)));
  return m?.[1] === undefined ? null : (JSON.parse(m[1]) as string);
}

function asBuffer(body: Uint8Array): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/**
 * A stored document's head (every top-level key but the pairs, parsed) and where its pairs' text
 * (`[…]`) lies in `body`, or null (pairs not last). Only the head is decoded.
 */
function splitStoredDocument(body: Buffer): { head: Record<string, unknown>; pairsFrom: number; pairsTo: number } | null {
  const at = body.lastIndexOf(PAIRS_KEY);
  // …]} at the end: ']' 0x5d, '}' 0x7d.
  if (at < 0 || body.length < 2 || body[body.length - 2] !== 0x5d || body[body.length - 1] !== 0x7d) return null;
  const head = JSON.parse(`${body.toString('utf8', 0, at)}}`) as Record<string, unknown>;
  // Pairs not last (a document stored before): the keys that followed them are missing from the head.
  if (!('computedAt' in head && 'notes' in head && 'systems' in head)) return null;
  return { head, pairsFrom: at + PAIRS_KEY.length - 1, pairsTo: body.length - 1 };
}

/**
 * A stored document with top-level keys other than the pairs changed by `revise`, the pairs' bytes
 * kept as stored: the api's `updating` and `earlier` variants of a board, made on the request path,
 * decode, parse and write the 40 KB head of a 100-system board, not its 3 MB of pairs (issue #28:
 * parsing, writing and compressing the whole document held the api's event loop for 0.3–0.6 s).
 * Byte for byte the UTF-8 of `JSON.stringify(revise(upgradeStoredBoard(JSON.parse(body))))` when
 * `revise` changes existing keys only. Null for a document this cannot take (pairs not last; a
 * format before method-keyed values or pair test results, which upgradeStoredBoard rewrites): parse
 * it whole.
 */
export function reviseStoredBoard(body: Uint8Array, revise: (head: Record<string, unknown>) => Record<string, unknown>): Buffer | null {
  const bytes = asBuffer(body);
  const split = splitStoredDocument(bytes);
  if (!split || !Array.isArray(split.head['methods'])) return null;
  const pairs = bytes.subarray(split.pairsFrom, split.pairsTo);
  // One encoder writes every pair of a document: the current one gives each its testResults.
  if (pairs.length !== 2 && pairs.indexOf('"testResults":') < 0) return null;
  const head = JSON.stringify(revise(split.head));
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"pairs":`, 'utf8'), pairs, Buffer.from('}')]);
}

/**
 * A board stored before the method-keyed fields existed (format lb2, served only while its
 * successor computes) with empty `methods` and `values`, so it still matches the document's shape.
 */
export function upgradeStoredBoard(raw: Record<string, unknown>): Record<string, unknown> {
  const pairs = Array.isArray(raw['pairs']) ? (raw['pairs'] as Record<string, unknown>[]) : [];
  const board = pairs.every((p) => Array.isArray(p['testResults'])) ? raw : { ...raw, pairs: pairs.map(withTestResults) };
  if (Array.isArray(board['methods'])) return board;
  const systems = Array.isArray(board['systems']) ? (board['systems'] as Record<string, unknown>[]) : [];
  return { ...board, methods: [], systems: systems.map((s) => (Array.isArray(s['values']) ? s : { ...s, values: [] })) };
}

/**
 * The field of a test in a pair's fixed `tests` object (stored by boards before ADR 0030; GraphQL's
 * deprecated `SystemPair.tests`): its registry key in camel case, bootstrap_corpus → bootstrapCorpus.
 */
export const pairTestField = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A pair's fixed `tests` object, from its `testResults`: every registered test by
 * {@link pairTestField}, null where the pair has no result. The one place it is made (ADR 0033).
 * Example: `pairTestsOf([{ test: 'bootstrap_corpus', p: 0.01 }])['bootstrapCorpus']` → 0.01.
 */
export function pairTestsOf(testResults: readonly PairTestResult[]): Record<string, number | null> {
  const byKey = new Map(testResults.map((r) => [r.test, r.p]));
  return Object.fromEntries(PAIRED_TESTS.map((t) => [pairTestField(t.key), byKey.get(t.key) ?? null]));
}

/**
 * A pair stored before `testResults` existed: its results read off the fixed `tests` object
 * (corpus tests only where stored, as the analysis adds them only for corpus-level metrics).
 */
function withTestResults(pair: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(pair['testResults'])) return pair;
  const tests = (pair['tests'] ?? {}) as Record<string, number | null | undefined>;
  const testResults = PAIRED_TESTS.flatMap((t) => {
    const p = tests[pairTestField(t.key)];
    return t.corpus && (p === null || p === undefined) ? [] : [{ test: t.key, p: p ?? null }];
  });
  return { ...pair, testResults };
}

/** A stored board read back (the inverse of {@link leaderboardDocument}'s JSON). */
export function parseLeaderboardDocument(body: string): Leaderboard {
  return boardFromRaw(JSON.parse(body) as Record<string, unknown>);
}

function boardFromRaw(parsed: Record<string, unknown>): Leaderboard {
  const raw = upgradeStoredBoard(parsed);
  return {
    ...(raw as unknown as Leaderboard),
    test: enumValue(PairedTest, raw['test']),
    correction: enumValue(PValueCorrection, raw['correction']),
    computedAt: typeof raw['computedAt'] === 'string' ? new Date(raw['computedAt']) : null,
  };
}

/** A board's bytes as stored and served. */
export interface LeaderboardDocument {
  body: string;
  gzip: Uint8Array;
  brotli: Uint8Array;
  /** Strong ETag (quoted) of the body. */
  etag: string;
  /** The pairs, when they are stored apart from the document (the document then says `pairsApart`). */
  pairTiles?: PairTile[];
}

/** Options of {@link encodeLeaderboard}. */
export interface EncodeOptions {
  /**
   * A board of more systems than this keeps its pairs out of the document, in tiles
   * ({@link PairTile}); default: never (every pair in the document).
   */
  pairsApartAbove?: number;
}

/**
 * Serialises and compresses a board (gzip level 9, brotli quality 9: compressed once, served many
 * times). Above `pairsApartAbove` systems the pairs go into tiles of {@link PAIR_TILE} systems per side.
 */
export function encodeLeaderboard(board: Leaderboard, options: EncodeOptions = {}): LeaderboardDocument {
  const apart = options.pairsApartAbove !== undefined && board.systems.length > options.pairsApartAbove;
  const pairTiles = apart
    ? [...tilePairs(board.systems.map((s) => s.submissionId), board.pairs).values()].sort((x, y) => x.row - y.row || x.col - y.col).map((t) => encodePairTile(t.row, t.col, t.pairs))
    : undefined;
  const body = JSON.stringify(leaderboardJson(board, apart ? pairsApartOf(board.systems.length, board.pairs.length, PAIR_TILE) : null));
  const bytes = Buffer.from(body, 'utf8');
  return {
    body,
    gzip: gzipSync(bytes, { level: 9 }),
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
    etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
    ...(pairTiles ? { pairTiles } : {}),
  };
}

/** A stored board with the fields that say where it stands against the phase's current data. */
export function asServed(board: ComputedLeaderboard, stamp: string, computedAt: Date): Leaderboard {
  return { ...board, updating: false, stamp, computedAt };
}
