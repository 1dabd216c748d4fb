// The analysis memo of a view, kept between computations of a phase's boards (ADR 0027): so the
// board after the last score costs one system's work (see @podium/ranking analysis-memo.ts for
// what is kept and the cost model).
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import { emptyAnalysisMemo, type AnalysisMemo, type PairMemo, type SystemMemo } from '@podium/ranking';

/** Where memos are kept (LeaderboardRepository.memo / saveMemo). */
export interface MemoStore {
  load(memoKey: string): Promise<Uint8Array | null>;
  save(memoKey: string, body: Uint8Array): Promise<void>;
}

/**
 * Version of the serialised form; another version reads as an empty memo. Format 2 also kept
 * resampled wins per system (`winsAgainst`); format 3 does not, and a format-2 memo is read
 * without them (its other columns are the same).
 */
const MEMO_FORMAT = 3;
const READABLE_FORMATS: readonly unknown[] = [2, MEMO_FORMAT];

/** A memo as stored: v8's structured serialisation (Maps and typed arrays as they are). */
export function serialiseMemo(memo: AnalysisMemo): Uint8Array {
  return serialize({ v: MEMO_FORMAT, context: memo.context, systems: memo.systems, pairs: memo.pairs });
}

/** A Map from any realm (v8.deserialize builds the main realm's, which a test's vm context does not share). */
const isMap = (x: unknown): x is Map<unknown, unknown> => Object.prototype.toString.call(x) === '[object Map]';

/** A stored memo read back; anything unreadable or of another format is an empty memo (it is a cache). */
export function parseMemo(body: Uint8Array | null): AnalysisMemo {
  if (!body) return emptyAnalysisMemo();
  try {
    const raw = deserialize(body) as { v?: unknown; context?: unknown; systems?: unknown; pairs?: unknown };
    if (!READABLE_FORMATS.includes(raw.v) || typeof raw.context !== 'string' || !isMap(raw.systems) || !isMap(raw.pairs)) {
      return emptyAnalysisMemo();
    }
    return {
      context: raw.context,
      systems: raw.systems as Map<string, SystemMemo>,
      pairs: raw.pairs as Map<string, PairMemo>,
    };
  } catch {
    return emptyAnalysisMemo();
  }
}

/** Bytes of a row of scores (float64, little-endian as the platform stores them). */
function rowBytes(row: ArrayLike<number>): Uint8Array {
  const f = row instanceof Float64Array ? row : Float64Array.from(row);
  return new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
}

/**
 * One fingerprint per system: SHA-256 of the instance ids in order, the system's key, its scores
 * and its corpus statistics (when given): their bytes, or a key per system that names them (the
 * digest of the stored bytes, corpusStatisticsKeys; the statistics are then not read for
 * fingerprinting). Equal fingerprints mean equal inputs of everything the memo keeps for the system.
 */
export function systemFingerprints(
  instances: readonly string[],
  systems: readonly string[],
  scores: readonly ArrayLike<number>[],
  stats: { width: number; data: readonly ArrayBufferView[] } | { keys: readonly string[] } | null,
): string[] {
  const ids = createHash('sha256');
  for (const id of instances) ids.update(id).update('\u0000');
  const instanceHash = ids.digest();
  return systems.map((system, s) => {
    const h = createHash('sha256').update(instanceHash).update(system).update('\u0000');
    const row = scores[s];
    if (row) h.update(rowBytes(row));
    if (stats && 'keys' in stats) {
      h.update(`\u0000stored statistics ${stats.keys[s] ?? ''}\u0000`);
      return h.digest('base64url');
    }
    const st = stats?.data[s];
    if (stats && st) {
      h.update(`\u0000${stats.width}:${st.constructor.name}\u0000`);
      h.update(new Uint8Array(st.buffer, st.byteOffset, st.byteLength));
    }
    return h.digest('base64url');
  });
}
