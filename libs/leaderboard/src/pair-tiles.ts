// The pairs of a large board, stored apart from its document in tiles of the pairwise matrix
// (issue #28 item 5, docs/adr/0038-arena-boards-pairs-in-tiles.md).
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { StoredPairTile } from '@podium/db';
import type { SystemPair } from './leaderboard.types';

/**
 * Systems per side of a pair tile: tile (r, c), r ≤ c, holds the pairs of one system at board
 * positions r·T…r·T+T−1 and the other at c·T…c·T+T−1. 32 covers the web's 30 × 30 block of the
 * matrix in at most 4 tiles when the block follows the board order, and keeps a tile near
 * 1,000 pairs (≈ 630 KB of JSON, ≈ 80 KB brotli).
 */
export const PAIR_TILE = 32;

/**
 * Default of `PODIUM_LEADERBOARD_PAIRS_APART_ABOVE`: boards of more systems than this keep their
 * pairs out of the document (100 systems: 4,950 pairs, a 3.3 MB document, served whole as
 * before; 1,000 systems would make it ≈ 317 MB).
 */
export const DEFAULT_PAIRS_APART_ABOVE = 100;

/** What a board document says when its pairs are stored apart (its `pairsApart` key). */
export interface PairsApart {
  /** Pairs of the board: n(n − 1)/2. */
  count: number;
  /** Systems per side of a tile ({@link PAIR_TILE} when stored). */
  tile: number;
  /** Tiles per side: ⌈systems / tile⌉; tile (row, col) exists for row ≤ col. */
  tiles: number;
}

/** One stored tile: its pairs as JSON (`{"row":r,"col":c,"pairs":[…]}`), compressed, with a strong ETag; the row the repository stores. */
export type PairTile = StoredPairTile;

/** The JSON of a tile as stored and served. */
export interface PairTileJson {
  row: number;
  col: number;
  pairs: SystemPair[];
}

/**
 * The tile of every pair, by the positions of its two systems in `systemIds` (the board's order):
 * key `${min(r, c)}:${max(r, c)}` of the tile rows r, c. Pairs keep their order within a tile.
 * Throws for a pair naming a submission that is not on the board.
 */
export function tilePairs(systemIds: readonly string[], pairs: readonly SystemPair[], tile = PAIR_TILE): Map<string, { row: number; col: number; pairs: SystemPair[] }> {
  const position = new Map(systemIds.map((id, i) => [id, i]));
  const tiles = new Map<string, { row: number; col: number; pairs: SystemPair[] }>();
  for (const pair of pairs) {
    const a = position.get(pair.aSubmissionId);
    const b = position.get(pair.bSubmissionId);
    if (a === undefined || b === undefined) throw new Error(`pair ${pair.aSubmissionId}–${pair.bSubmissionId} names a system that is not on the board`);
    const ta = Math.floor(a / tile);
    const tb = Math.floor(b / tile);
    const row = Math.min(ta, tb);
    const col = Math.max(ta, tb);
    const key = `${row}:${col}`;
    let t = tiles.get(key);
    if (!t) tiles.set(key, (t = { row, col, pairs: [] }));
    t.pairs.push(pair);
  }
  return tiles;
}

/**
 * Compression of a tile: brotli quality 5 and gzip level 6, not the document's 9 and 9. One tile of
 * 1,024 pairs (614 KB of JSON) took 368 ms of CPU at brotli 9 for 76.5 KB, 11.4 ms at 5 for 82.9 KB
 * (gzip 9: 21.6 ms, 87.2 KB; 6: 9.5 ms, 90.2 KB): at 528 tiles, 3 minutes of a board thread's CPU
 * against 11 s, for 8 % more bytes (ADR 0038).
 */
export const TILE_BROTLI_QUALITY = 5;
export const TILE_GZIP_LEVEL = 6;

/** Encodes one tile as stored ({@link TILE_BROTLI_QUALITY}, {@link TILE_GZIP_LEVEL}: compressed once, served many times). */
export function encodePairTile(row: number, col: number, pairs: readonly SystemPair[]): PairTile {
  const bytes = Buffer.from(JSON.stringify({ row, col, pairs }), 'utf8');
  return {
    row,
    col,
    count: pairs.length,
    gzip: gzipSync(bytes, { level: TILE_GZIP_LEVEL }),
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: TILE_BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
    etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
  };
}

/** The {@link PairsApart} of a board of `systems` systems and `count` pairs. */
export function pairsApartOf(systems: number, count: number, tile = PAIR_TILE): PairsApart {
  return { count, tile, tiles: Math.ceil(systems / tile) };
}

/**
 * Reads a stored document's `pairsApart` (null: its pairs are in the document). Validates the
 * shape, so a reader never trusts a malformed key.
 */
export function readPairsApart(raw: unknown): PairsApart | null {
  if (raw === null || typeof raw !== 'object') return null;
  const v = (raw as Record<string, unknown>)['pairsApart'];
  if (v === null || typeof v !== 'object') return null;
  const { count, tile, tiles } = v as Record<string, unknown>;
  if (!Number.isInteger(count) || !Number.isInteger(tile) || !Number.isInteger(tiles) || (tile as number) < 1) return null;
  return { count: count as number, tile: tile as number, tiles: tiles as number };
}

/**
 * Tiles in the order a download lists them: row by row of tiles, each row's tiles by column
 * (every pair exactly once).
 */
export function tileOrder(tiles: number): { row: number; col: number }[] {
  const order: { row: number; col: number }[] = [];
  for (let row = 0; row < tiles; row++) for (let col = row; col < tiles; col++) order.push({ row, col });
  return order;
}
