/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the per-resample wins (counts, beats rows, the drawn lists), indices bounded by the loops over those arrays; results are exact integers, checked equal between both kernels by npx jest libs/ranking */
import type { BeatsArray } from './bootstrap';
import { RESAMPLE_WINS_WASM } from './wasm/resample-wins-module';

/**
 * Every system's wins in a batch of bootstrap resamples, W_i = Σ_l c_l·beats_il (docs/adr/0043):
 * the Bradley–Terry refit's sufficient statistic, k·n multiply-adds per resample. Integers, so
 * both kernels give the same numbers exactly:
 * - `wasm-simd`: every instance, sixteen at a time (bytes × bytes into 32-bit lanes), two systems
 *   × two resamples per pass over a cached chunk of instances; boards up to 256 systems (beats
 *   as bytes), counts up to 255 per instance (a batch with a larger count takes the other kernel);
 * - `js`: the instances each resample drew (≈ 63%), four systems per pass over the list.
 * At 100 systems × 100,000 instances the wasm kernel does a resample's wins in a fraction of the
 * JavaScript time (npm run bench:resample-wins prints the ratio).
 */
export interface ResampleWins {
  /** Which kernel `wins` uses (a batch whose counts do not fit a byte falls back to `js`). */
  readonly kernel: 'wasm-simd' | 'js';
  /** out[b·k + i] = Σ_l counts[b][l]·beats[i][l] for b < batch (out holds at least batch·k). */
  wins(counts: readonly Int32Array[], batch: number, out: Float64Array): void;
}

/** Resamples a {@link ResampleWins} takes at once: each wasm pass over the instances serves this many. */
export const RESAMPLE_BATCH = 16;

/** Instances per chunk of the wasm kernel's sweep (bytes of a beats row). */
const WASM_CHUNK = 4096;

/** The largest wasm memory the kernel asks for (beats, a batch of counts and the sums); above it, `js`. */
const WASM_MAX_BYTES = 1 << 30;

/**
 * The part of the WebAssembly JavaScript API the kernel uses, typed here: the library compiles
 * against ES2023 alone (no DOM library), and Node's and browsers' globals both provide it.
 */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}

const wasmApi = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

/** The compiled kernel, or null where WebAssembly or its SIMD instructions are unavailable. */
function wasmModule(): object | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (!wasmApi) return compiled;
  const text = atob(RESAMPLE_WINS_WASM);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  if (wasmApi.validate(bytes)) compiled = new wasmApi.Module(bytes);
  return compiled;
}

/** Options of {@link resampleWins}. */
export interface ResampleWinsOptions {
  /** `auto` (default): wasm where the board fits it, else js; `js` forces the JavaScript kernel. */
  kernel?: 'auto' | 'js';
}

/**
 * A wins kernel for the board's per-instance beats counts (n instances each), holding what it
 * needs between batches (for wasm, a copy of the beats in its memory).
 * @example resampleWins(pc.beats, n).wins([counts], 1, W); // W[i] = Σ_l counts[l]·beats[i][l]
 */
export function resampleWins(beats: readonly BeatsArray[], n: number, options: ResampleWinsOptions = {}): ResampleWins {
  if (options.kernel === 'js') return jsWins(beats, n);
  const module = wasmModule();
  const k = beats.length;
  if (!module || !wasmApi || k === 0 || n === 0 || !beats.every((b) => b instanceof Uint8Array) || 255 * n >= 2 ** 31) return jsWins(beats, n);
  const stride = Math.ceil(n / 16) * 16;
  const kPad = k + (k % 2);
  const countsAt = kPad * stride;
  const outAt = countsAt + RESAMPLE_BATCH * stride;
  const bytes = outAt + kPad * RESAMPLE_BATCH * 4;
  if (bytes > WASM_MAX_BYTES) return jsWins(beats, n);
  // the JavaScript kernel only for a batch with a count above a byte (its lists take 12 bytes an instance)
  let js: ResampleWins | null = null;
  const memory = new wasmApi.Memory({ initial: Math.ceil(bytes / 65_536) });
  const instance = new wasmApi.Instance(module, { env: { memory } });
  const kernel = instance.exports['wins'] as (b: number, k: number, c: number, rb: number, stride: number, chunk: number, out: number) => void;
  const heap = new Uint8Array(memory.buffer);
  for (let i = 0; i < k; i++) heap.set(beats[i] as Uint8Array, i * stride);
  const sums = new Int32Array(memory.buffer, outAt, kPad * RESAMPLE_BATCH);
  return {
    kernel: 'wasm-simd',
    wins(counts, batch, out) {
      if (batch > RESAMPLE_BATCH) throw new RangeError(`resampleWins: a batch holds at most ${RESAMPLE_BATCH} resamples, not ${batch}`);
      const rb = batch + (batch % 2);
      for (let b = 0; b < batch; b++) {
        const c = counts[b]!;
        const o = countsAt + b * stride;
        let max = 0;
        for (let l = 0; l < n; l++) {
          const v = c[l]!;
          heap[o + l] = v;
          max |= v;
        }
        // a count above 255 (or negative) does not fit the byte the kernel reads: this batch in JavaScript
        if (max > 255 || max < 0) {
          js ??= jsWins(beats, n);
          js.wins(counts, batch, out);
          return;
        }
      }
      if (rb > batch) heap.fill(0, countsAt + batch * stride, countsAt + rb * stride);
      sums.fill(0, 0, kPad * rb);
      kernel(0, kPad, countsAt, rb, stride, WASM_CHUNK, outAt);
      for (let i = 0; i < k; i++) for (let b = 0; b < batch; b++) out[b * k + i] = sums[i * rb + b]!;
    },
  };
}

/**
 * The instances a resample drew (count ≠ 0) as (index, count) lists, in instance order: writes
 * `idx[0 … m)` and `count[0 … m)` and returns m (≈ 63% of n).
 */
export function drawnList(counts: Int32Array, n: number, idx: Int32Array, count: Float64Array): number {
  let m = 0;
  for (let l = 0; l < n; l++) {
    const c = counts[l]!;
    if (c !== 0) {
      idx[m] = l;
      count[m++] = c;
    }
  }
  return m;
}

/** The JavaScript kernel: per resample, the drawn instances as (index, count) lists, four systems per pass. */
function jsWins(beats: readonly BeatsArray[], n: number): ResampleWins {
  const k = beats.length;
  const drawnIdx = new Int32Array(n);
  const drawnCount = new Float64Array(n);
  return {
    kernel: 'js',
    wins(counts, batch, out) {
      for (let b = 0; b < batch; b++) {
        const m = drawnList(counts[b]!, n, drawnIdx, drawnCount);
        const row = b * k;
        for (let i = 0; i < k; i += 4) {
          const i1 = Math.min(i + 1, k - 1);
          const i2 = Math.min(i + 2, k - 1);
          const i3 = Math.min(i + 3, k - 1);
          const b0 = beats[i]!;
          const b1 = beats[i1]!;
          const b2 = beats[i2]!;
          const b3 = beats[i3]!;
          let w0 = 0;
          let w1 = 0;
          let w2 = 0;
          let w3 = 0;
          for (let q = 0; q < m; q++) {
            const l = drawnIdx[q]!;
            const v = drawnCount[q]!;
            w0 += v * b0[l]!;
            w1 += v * b1[l]!;
            w2 += v * b2[l]!;
            w3 += v * b3[l]!;
          }
          out[row + i] = w0;
          out[row + i1] = w1;
          out[row + i2] = w2;
          out[row + i3] = w3;
        }
      }
    },
  };
}

/**
 * Each listed tied pair's tied count in a batch of resamples, T_p = Σ_{l: pair p ties} c_l
 * (docs/adr/0043): the pairs a memo holds no tie column for (a board's added systems against the
 * others), given as {@link PairTieSource}'s cells by instance. Integers, so both kernels agree
 * exactly:
 * - `wasm-simd`: every instance once per batch, its sixteen resamples' counts added to each of
 *   its cells' sums at once (four 32-bit vectors);
 * - `js`: per resample, each instance it drew, one addition per cell.
 * Issue #28: at 100 × 100,000 a TER board three systems behind its memo spent ≈ 1.5 s of its
 * analysis adding these cells one resample at a time.
 */
export interface ResampleTies {
  readonly kernel: 'wasm-simd' | 'js';
  /** out[b·P + t] = Σ_{cells e of listed pair t} counts[b][instance of e], for b < batch (P listed pairs). */
  ties(counts: readonly Int32Array[], batch: number, out: Float64Array): void;
}

/** The listed pairs' cells by instance: instance l's are `pairs[start[l] … start[l + 1])`, pair ids among `listedPairs`. */
export interface ListedTieCells {
  listedPairs: Int32Array;
  start: Int32Array;
  pairs: Int32Array;
}

/**
 * A ties kernel for the listed pairs' cells (n instances).
 * @example resampleTies(cells, n).ties([counts], 1, T); // T[t] = Σ of counts over pair t's tied instances
 */
export function resampleTies(cells: ListedTieCells, n: number, options: ResampleWinsOptions = {}): ResampleTies {
  const P = cells.listedPairs.length;
  // pair id → slot, dense (ids are i·k + j < k²); −1: not listed
  let top = 0;
  for (let t = 0; t < P; t++) top = Math.max(top, cells.listedPairs[t]!);
  const slotOf = new Int32Array(P > 0 ? top + 1 : 0).fill(-1);
  for (let t = 0; t < P; t++) slotOf[cells.listedPairs[t]!] = t;
  const slots = new Int32Array(cells.pairs.length);
  for (let e = 0; e < slots.length; e++) {
    const pair = cells.pairs[e]!;
    const t = pair >= 0 && pair < slotOf.length ? slotOf[pair]! : -1;
    if (t < 0) throw new RangeError(`resampleTies: cell of pair ${pair}, which is not listed`);
    slots[e] = t;
  }
  const js = jsTies(cells.start, slots, P, n);
  if (options.kernel === 'js') return js;
  const module = wasmModule();
  const cellCount = slots.length;
  if (!module || !wasmApi || n === 0 || P === 0) return js;
  const c16At = 0;
  const startAt = c16At + n * 16;
  const slotsAt = startAt + (n + 1) * 4;
  const accAt = Math.ceil((slotsAt + cellCount * 4) / 16) * 16;
  const bytes = accAt + P * 64;
  if (bytes > WASM_MAX_BYTES) return js;
  const memory = new wasmApi.Memory({ initial: Math.ceil(bytes / 65_536) });
  const instance = new wasmApi.Instance(module, { env: { memory } });
  const kernel = instance.exports['ties'] as (c16: number, n: number, start: number, slots: number, acc: number) => void;
  const heap = new Uint8Array(memory.buffer);
  new Int32Array(memory.buffer, startAt, n + 1).set(cells.start.subarray(0, n + 1));
  new Int32Array(memory.buffer, slotsAt, cellCount).set(slots);
  const acc = new Int32Array(memory.buffer, accAt, P * 16);
  return {
    kernel: 'wasm-simd',
    ties(counts, batch, out) {
      if (batch > RESAMPLE_BATCH) throw new RangeError(`resampleTies: a batch holds at most ${RESAMPLE_BATCH} resamples, not ${batch}`);
      // the batch's counts side by side, 16 bytes an instance (zero past the batch)
      if (batch < RESAMPLE_BATCH) heap.fill(0, c16At, c16At + n * 16);
      for (let b = 0; b < batch; b++) {
        const c = counts[b]!;
        let max = 0;
        for (let l = 0, o = c16At + b; l < n; l++, o += 16) {
          const v = c[l]!;
          heap[o] = v;
          max |= v;
        }
        if (max > 255 || max < 0) {
          js.ties(counts, batch, out);
          return;
        }
      }
      acc.fill(0);
      kernel(c16At, n, startAt, slotsAt, accAt);
      for (let b = 0; b < batch; b++) for (let t = 0; t < P; t++) out[b * P + t] = acc[t * 16 + b]!;
    },
  };
}

/** The JavaScript ties kernel: per resample, the cells of the instances it drew. */
function jsTies(start: Int32Array, slots: Int32Array, P: number, n: number): ResampleTies {
  return {
    kernel: 'js',
    ties(counts, batch, out) {
      out.fill(0, 0, batch * P);
      for (let b = 0; b < batch; b++) {
        const c = counts[b]!;
        const o = b * P;
        for (let l = 0; l < n; l++) {
          const v = c[l]!;
          if (v === 0) continue;
          for (let e = start[l]!, end = start[l + 1]!; e < end; e++) out[o + slots[e]!]! += v;
        }
      }
    },
  };
}
