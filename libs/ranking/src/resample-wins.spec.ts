import { bootstrapAggregates, beatsArray, pairTieSource, pairwiseCounts, sufficientFromWins } from './bootstrap';
import { fitBradleyTerrySufficient } from './bradley-terry';
import { bootstrapCounts, mulberry32 } from './prng';
import { RESAMPLE_BATCH, resampleTies, resampleWins } from './resample-wins';

/** W[b·k + i] = Σ_l counts[b][l]·beats[i][l], the definition, one product at a time. */
function reference(beats: readonly ArrayLike<number>[], counts: readonly Int32Array[], batch: number): Float64Array {
  const k = beats.length;
  const out = new Float64Array(batch * k);
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < k; i++) {
      let sum = 0;
      for (let l = 0; l < (counts[b]?.length ?? 0); l++) sum += (counts[b]?.[l] ?? NaN) * (beats[i]?.[l] ?? NaN);
      out[b * k + i] = sum;
    }
  }
  return out;
}

function randomBeats(k: number, n: number, seed: number): Uint8Array[] {
  const rng = mulberry32(seed);
  return Array.from({ length: k }, () => {
    const b = beatsArray(k, n) as Uint8Array;
    for (let l = 0; l < n; l++) b[l] = rng.nextInt(k); // 0 … k − 1, as beats counts are
    return b;
  });
}

describe('resampleWins (docs/adr/0043)', () => {
  // odd k (a padded system row), n not a multiple of 16 (a padded tail), an odd batch (a padded resample row)
  const cases = [
    { k: 7, n: 1001, batch: 5 },
    { k: 100, n: 4099 * 2, batch: RESAMPLE_BATCH }, // more than one chunk of instances
    { k: 256, n: 37, batch: 1 }, // the widest board beats as bytes
    { k: 2, n: 1, batch: 3 },
  ];
  it.each(cases)('the wasm kernel gives the definition exactly ($k systems, $n instances, a batch of $batch)', ({ k, n, batch }) => {
    const beats = randomBeats(k, n, k + n);
    const rng = mulberry32(n);
    const counts = Array.from({ length: batch }, () => bootstrapCounts(n, rng, new Int32Array(n)));
    const wasm = resampleWins(beats, n);
    expect(wasm.kernel).toBe('wasm-simd'); // Node ships WebAssembly SIMD: this run tests the wasm kernel
    const out = new Float64Array(batch * k).fill(-1);
    wasm.wins(counts, batch, out);
    const expected = reference(beats, counts, batch);
    expect(Array.from(out)).toEqual(Array.from(expected));
    const js = new Float64Array(batch * k);
    resampleWins(beats, n, { kernel: 'js' }).wins(counts, batch, js);
    expect(Array.from(js)).toEqual(Array.from(expected));
  });

  it('reuses its memory across batches (a later batch is not added to the last one)', () => {
    const beats = randomBeats(9, 300, 1);
    const rng = mulberry32(2);
    const wins = resampleWins(beats, 300);
    for (let round = 0; round < 3; round++) {
      const counts = Array.from({ length: 4 }, () => bootstrapCounts(300, rng, new Int32Array(300)));
      const out = new Float64Array(4 * 9);
      wins.wins(counts, 4, out);
      expect(Array.from(out)).toEqual(Array.from(reference(beats, counts, 4)));
    }
  });

  it('takes a batch with a count above a byte to the JavaScript kernel, with the same sums', () => {
    const n = 600;
    const beats = randomBeats(10, n, 3);
    const first = new Int32Array(n);
    first[5] = 300; // does not fit the byte the wasm kernel reads
    first[7] = n - 300;
    const second = new Int32Array(n);
    second[0] = n;
    const counts = [first, second];
    const out = new Float64Array(2 * 10);
    resampleWins(beats, n).wins(counts, 2, out);
    expect(Array.from(out)).toEqual(Array.from(reference(beats, counts, 2)));
  });

  it('uses the JavaScript kernel for boards beyond 256 systems (beats wider than a byte)', () => {
    const k = 300;
    const beats = Array.from({ length: k }, () => beatsArray(k, 20));
    expect(resampleWins(beats, 20).kernel).toBe('js');
  });

  it('refuses a batch larger than it holds', () => {
    const beats = randomBeats(4, 10, 5);
    const counts = Array.from({ length: RESAMPLE_BATCH + 1 }, () => new Int32Array(10));
    expect(() => resampleWins(beats, 10).wins(counts, RESAMPLE_BATCH + 1, new Float64Array((RESAMPLE_BATCH + 1) * 4))).toThrow(/at most 16/);
  });

  it('keeps the bootstrap draws when resamples are drawn in batches: every resample\'s wins are those of its own counts', () => {
    const k = 6;
    const n = 53;
    const R = 2 * RESAMPLE_BATCH + 5; // two full batches and a short one
    const rng = mulberry32(8);
    const x = Array.from({ length: k }, () => Float64Array.from({ length: n }, () => rng.nextInt(5)));
    const pc = pairwiseCounts(x);
    const sortIdx = x.map((row) => Int32Array.from({ length: n }, (_, l) => l).sort((a, b) => (row[a] ?? NaN) - (row[b] ?? NaN)));
    const opts = { tolerance: 1e-12, maxIterations: 10000 };
    const suff = sufficientFromWins(pc.wins, k);
    const boot = bootstrapAggregates(x, pc, sortIdx, fitBradleyTerrySufficient(suff.W, suff.N, k, opts).strengths, R, 99, opts);
    const draw = mulberry32(99);
    for (let r = 0; r < R; r++) {
      const counts = bootstrapCounts(n, draw, new Int32Array(n));
      const expected = reference(pc.beats, [counts], 1);
      expect(Array.from(boot.bWins.subarray(r * k, (r + 1) * k))).toEqual(Array.from(expected));
    }
  });
});

describe('resampleTies (docs/adr/0043)', () => {
  /** A board with many ties (scores 0 … 3) and the cells of the pairs involving its last `added` systems, as a memo leaves them to list. */
  function listed(k: number, n: number, added: number, seed: number): { x: Float64Array[]; cells: NonNullable<ReturnType<typeof pairTieSource>> } {
    const rng = mulberry32(seed);
    const x = Array.from({ length: k }, () => Float64Array.from({ length: n }, () => rng.nextInt(4)));
    const pc = pairwiseCounts(x);
    const tiedPairs: number[] = [];
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) if ((pc.wins[i * k + j] ?? 0) + (pc.wins[j * k + i] ?? 0) < n) tiedPairs.push(i * k + j);
    // kept: the pairs among the first k − added systems (a column of R counts each); listed: the rest
    const cells = pairTieSource(pc, k, tiedPairs, 1, (i, j) => (j < k - added ? new Int32Array(1) : undefined));
    if (!cells) throw new Error('no tie source');
    return { x, cells };
  }

  /** T[b·P + t] by the definition: the counts of the instances where listed pair t's systems score the same. */
  function tiesReference(x: readonly Float64Array[], listedPairs: Int32Array, counts: readonly Int32Array[], batch: number): Float64Array {
    const k = x.length;
    const P = listedPairs.length;
    const out = new Float64Array(batch * P);
    for (let b = 0; b < batch; b++) {
      listedPairs.forEach((pair, t) => {
        const i = Math.floor(pair / k);
        const xi = x[i];
        const xj = x[pair - i * k];
        let sum = 0;
        for (let l = 0; l < (xi?.length ?? 0); l++) if (xi?.[l] === xj?.[l]) sum += counts[b]?.[l] ?? NaN;
        out[b * P + t] = sum;
      });
    }
    return out;
  }

  it.each([
    { k: 9, n: 777, added: 2, batch: 7 },
    { k: 30, n: 2000, added: 3, batch: RESAMPLE_BATCH },
    { k: 5, n: 17, added: 2, batch: 3 },
  ])('gives each listed pair its tied count exactly ($k systems, $n instances, $added added, a batch of $batch)', ({ k, n, added, batch }) => {
    const { x, cells } = listed(k, n, added, k * n);
    expect(cells.listedPairs.length).toBeGreaterThan(0);
    const rng = mulberry32(n + 1);
    const counts = Array.from({ length: batch }, () => bootstrapCounts(n, rng, new Int32Array(n)));
    const expected = Array.from(tiesReference(x, cells.listedPairs, counts, batch));
    const wasm = resampleTies(cells, n);
    expect(wasm.kernel).toBe('wasm-simd');
    for (let round = 0; round < 2; round++) {
      // twice: the second batch is not added to the first
      const out = new Float64Array(batch * cells.listedPairs.length).fill(-1);
      wasm.ties(counts, batch, out);
      expect(Array.from(out)).toEqual(expected);
    }
    const js = new Float64Array(batch * cells.listedPairs.length).fill(-1);
    resampleTies(cells, n, { kernel: 'js' }).ties(counts, batch, js);
    expect(Array.from(js)).toEqual(expected);
  });

  it('takes a batch with a count above a byte to the JavaScript kernel, with the same sums', () => {
    const n = 400;
    const { x, cells } = listed(6, n, 1, 4);
    const counts = [new Int32Array(n)];
    counts[0]?.fill(0);
    const only = counts[0] ?? new Int32Array(0);
    only[3] = 256;
    only[9] = n - 256;
    const out = new Float64Array(cells.listedPairs.length);
    resampleTies(cells, n).ties(counts, 1, out);
    expect(Array.from(out)).toEqual(Array.from(tiesReference(x, cells.listedPairs, counts, 1)));
  });

  it('refuses a cell of a pair that is not listed', () => {
    expect(() => resampleTies({ listedPairs: Int32Array.of(1), start: Int32Array.of(0, 1), pairs: Int32Array.of(2) }, 1)).toThrow(/not listed/);
  });
});
