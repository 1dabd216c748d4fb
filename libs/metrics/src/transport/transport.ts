/**
 * Exact earth mover's distance between two weighted point sets: the transportation problem
 * min Σ f_ij c_ij s.t. Σ_j f_ij = a_i, Σ_i f_ij = b_j, f ≥ 0, solved by the transportation
 * simplex (a network simplex on the bipartite graph: a matrix-minimum spanning-tree basis,
 * u/v potentials, Dantzig pricing with a switch to Bland's rule after a run of degenerate
 * pivots so that it cannot cycle). Exact in the sense of the simplex method: the optimum of the
 * linear programme, in float64, not an entropic (Sinkhorn) approximation.
 *
 * Unequal total masses follow pyemd (FastEMD's ÊMD, Pele & Werman 2009), which the MoverScore
 * and XMoverScore reference code call: the lighter side's whole mass is transported (the
 * heavier side's surplus stays where it is, at no cost) and `|Σa − Σb| · extraMassPenalty` is
 * added to the distance; the penalty defaults to the largest cost, as pyemd's `-1` does.
 */

/** An optimal transport plan and its cost. */
export interface TransportSolution {
  /** Σ f_ij c_ij + |Σa − Σb| · extraMassPenalty (pyemd's `emd`). */
  readonly distance: number;
  /** Σ f_ij c_ij, the cost of the flow alone (what `1 − Σ flow·dist` of the reference code reads). */
  readonly cost: number;
  /** Row-major n×m optimal flow f (n = supply.length, m = demand.length). */
  readonly flow: Float64Array;
  /** Mass moved: min(Σa, Σb). */
  readonly transported: number;
  /** Simplex pivots taken (for the bench). */
  readonly pivots: number;
}

export interface TransportOptions {
  /** Cost per unit of unmatched mass; default the largest entry of `cost` (pyemd's −1). */
  readonly extraMassPenalty?: number;
}

function checkWeights(name: string, w: ArrayLike<number>): void {
  for (let i = 0; i < w.length; i++) {
    const x = w[i] as number;
    if (!Number.isFinite(x) || x < 0) throw new RangeError(`${name}[${i}] must be a finite non-negative number, got ${x}`);
  }
}

/**
 * Solves the transportation problem exactly. `cost` is row-major n×m (`cost[i*m + j]` is the
 * cost of moving a unit from supply point i to demand point j); weights must be finite and ≥ 0.
 */
export function earthMoversDistance(
  supply: ArrayLike<number>,
  demand: ArrayLike<number>,
  cost: ArrayLike<number>,
  options: TransportOptions = {},
): TransportSolution {
  const n = supply.length;
  const m = demand.length;
  if (cost.length !== n * m) throw new RangeError(`cost has ${cost.length} entries, expected ${n}×${m} = ${n * m}`);
  checkWeights('supply', supply);
  checkWeights('demand', demand);
  let maxCost = 0;
  for (let k = 0; k < cost.length; k++) {
    const c = cost[k] as number;
    if (!Number.isFinite(c)) throw new RangeError(`cost[${k}] must be finite, got ${c}`);
    if (k === 0 || c > maxCost) maxCost = c;
  }
  const penalty = options.extraMassPenalty ?? maxCost;
  if (!Number.isFinite(penalty)) throw new RangeError(`extraMassPenalty must be finite, got ${penalty}`);

  let sumA = 0;
  let sumB = 0;
  for (let i = 0; i < n; i++) sumA += supply[i] as number;
  for (let j = 0; j < m; j++) sumB += demand[j] as number;
  const flow = new Float64Array(n * m);
  const transported = Math.min(sumA, sumB);
  const extra = Math.abs(sumA - sumB) * penalty;
  // Points of zero weight carry no flow: solve on the others only.
  const rows: number[] = [];
  const cols: number[] = [];
  for (let i = 0; i < n; i++) if ((supply[i] as number) > 0) rows.push(i);
  for (let j = 0; j < m; j++) if ((demand[j] as number) > 0) cols.push(j);
  if (rows.length === 0 || cols.length === 0) return { distance: extra, cost: 0, flow, transported: 0, pivots: 0 };

  // The lighter side gets a dummy point holding the difference, reachable at cost 0.
  const a = rows.map((i) => supply[i] as number);
  const b = cols.map((j) => demand[j] as number);
  if (sumA > sumB) b.push(sumA - sumB);
  else if (sumB > sumA) a.push(sumB - sumA);
  const R = a.length;
  const C = b.length;
  const c = new Float64Array(R * C);
  for (let r = 0; r < rows.length; r++) {
    for (let s = 0; s < cols.length; s++) c[r * C + s] = cost[(rows[r] as number) * m + (cols[s] as number)] as number;
  }
  const { x, pivots } = transportationSimplex(a, b, c, R, C);
  let total = 0;
  for (let r = 0; r < rows.length; r++) {
    for (let s = 0; s < cols.length; s++) {
      const f = x[r * C + s] as number;
      if (f !== 0) {
        const i = rows[r] as number;
        const j = cols[s] as number;
        flow[i * m + j] = f;
        total += f * (cost[i * m + j] as number);
      }
    }
  }
  return { distance: total + extra, cost: total, flow, transported, pivots };
}

/** The simplex on a balanced R×C problem; returns the flow (row-major) and the pivot count. */
function transportationSimplex(a: number[], b: number[], c: Float64Array, R: number, C: number): { x: Float64Array; pivots: number } {
  const x = new Float64Array(R * C);
  const basic = new Uint8Array(R * C);
  const basis: number[] = []; // cell indices r*C+s; always R+C−1 of them, a spanning tree
  // Initial basis by the matrix-minimum rule: cells in increasing cost, each allocation crosses
  // out exactly one line (row or column; the last one both), so the R+C−1 allocated cells form
  // a spanning tree (degenerate cells carry 0). Far fewer pivots than the north-west corner.
  {
    const ra = a.slice();
    const cb = b.slice();
    const rowDone = new Uint8Array(R);
    const colDone = new Uint8Array(C);
    let rowsLeft = R;
    let colsLeft = C;
    const order = Array.from({ length: R * C }, (_, k) => k).sort((p, q) => (c[p] as number) - (c[q] as number) || p - q);
    for (const k of order) {
      const r = Math.floor(k / C);
      const s = k % C;
      if (rowDone[r] || colDone[s]) continue;
      const q = Math.min(ra[r] as number, cb[s] as number);
      x[k] = q;
      basic[k] = 1;
      basis.push(k);
      if (rowsLeft === 1 && colsLeft === 1) break;
      const crossRow = rowsLeft > 1 && ((ra[r] as number) <= (cb[s] as number) || colsLeft === 1);
      if (crossRow) {
        rowDone[r] = 1;
        rowsLeft--;
        ra[r] = 0;
        cb[s] = Math.max(0, (cb[s] as number) - q);
      } else {
        colDone[s] = 1;
        colsLeft--;
        cb[s] = 0;
        ra[r] = Math.max(0, (ra[r] as number) - q);
      }
    }
    if (basis.length !== R + C - 1) throw new Error('transport: initial basis is not a spanning tree (internal error)');
  }
  let maxAbs = 0;
  for (let k = 0; k < c.length; k++) maxAbs = Math.max(maxAbs, Math.abs(c[k] as number));
  const eps = 1e-13 * (1 + maxAbs);

  const N = R + C; // nodes: rows 0..R−1, columns R..R+C−1
  const u = new Float64Array(N); // potentials (u for rows, v for columns)
  const parent = new Int32Array(N);
  const parentCell = new Int32Array(N);
  const depth = new Int32Array(N);
  const adjStart = new Int32Array(N + 1);
  const adj = new Int32Array(2 * (N - 1));
  const adjCell = new Int32Array(2 * (N - 1));
  const queue = new Int32Array(N);
  const deg = new Int32Array(N);
  let pivots = 0;
  let degenerateRun = 0;
  const maxPivots = 50 * R * C + 1000;

  for (;;) {
    // Tree structure and potentials from the basis.
    deg.fill(0);
    for (const k of basis) {
      const r = Math.floor(k / C);
      const s = R + (k % C);
      deg[r] = (deg[r] as number) + 1;
      deg[s] = (deg[s] as number) + 1;
    }
    adjStart[0] = 0;
    for (let v = 0; v < N; v++) adjStart[v + 1] = (adjStart[v] as number) + (deg[v] as number);
    deg.fill(0);
    for (const k of basis) {
      const r = Math.floor(k / C);
      const s = R + (k % C);
      let p = (adjStart[r] as number) + (deg[r] as number);
      deg[r] = (deg[r] as number) + 1;
      adj[p] = s;
      adjCell[p] = k;
      p = (adjStart[s] as number) + (deg[s] as number);
      deg[s] = (deg[s] as number) + 1;
      adj[p] = r;
      adjCell[p] = k;
    }
    parent.fill(-2);
    parent[0] = -1;
    parentCell[0] = -1;
    depth[0] = 0;
    u[0] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
      const v = queue[head++] as number;
      for (let p = adjStart[v] as number; p < (adjStart[v + 1] as number); p++) {
        const w = adj[p] as number;
        if (parent[w] !== -2) continue;
        const k = adjCell[p] as number;
        parent[w] = v;
        parentCell[w] = k;
        depth[w] = (depth[v] as number) + 1;
        // u_r + v_s = c_rs
        u[w] = (c[k] as number) - (u[v] as number);
        queue[tail++] = w;
      }
    }
    if (tail !== N) throw new Error('transport: the basis is not a spanning tree (internal error)');

    // Pricing: Dantzig (most negative reduced cost), or Bland (first negative) after a run of
    // degenerate pivots.
    const bland = degenerateRun > 2 * N;
    let enter = -1;
    let best = -eps;
    for (let r = 0; r < R && !(bland && enter >= 0); r++) {
      const ur = u[r] as number;
      const base = r * C;
      for (let s = 0; s < C; s++) {
        const k = base + s;
        if (basic[k]) continue;
        const rc = (c[k] as number) - ur - (u[R + s] as number);
        if (rc < best) {
          best = bland ? -eps : rc;
          enter = k;
          if (bland) break;
        }
      }
    }
    if (enter < 0) break;
    if (++pivots > maxPivots) throw new Error('transport: simplex did not converge (internal error)');

    // The cycle: the tree path between row r0 and column s0 closes with the entering cell.
    const r0 = Math.floor(enter / C);
    const s0 = R + (enter % C);
    const fromR: number[] = [];
    const fromS: number[] = [];
    let p = r0;
    let q = s0;
    while ((depth[p] as number) > (depth[q] as number)) {
      fromR.push(parentCell[p] as number);
      p = parent[p] as number;
    }
    while ((depth[q] as number) > (depth[p] as number)) {
      fromS.push(parentCell[q] as number);
      q = parent[q] as number;
    }
    while (p !== q) {
      fromR.push(parentCell[p] as number);
      p = parent[p] as number;
      fromS.push(parentCell[q] as number);
      q = parent[q] as number;
    }
    // Path s0 → … → lca → … → r0; cells alternate −, +, −, … starting next to s0.
    const path = fromS.concat(fromR.reverse());
    let theta = Infinity;
    let leave = -1;
    for (let t = 0; t < path.length; t += 2) {
      const k = path[t] as number;
      const f = x[k] as number;
      if (f < theta || (f === theta && k < leave)) {
        theta = f;
        leave = k;
      }
    }
    if (theta > 0) degenerateRun = 0;
    else degenerateRun++;
    x[enter] = theta;
    for (let t = 0; t < path.length; t++) {
      const k = path[t] as number;
      x[k] = t % 2 === 0 ? (x[k] as number) - theta : (x[k] as number) + theta;
    }
    x[leave] = 0;
    basic[leave] = 0;
    basic[enter] = 1;
    basis[basis.indexOf(leave)] = enter;
  }
  return { x, pivots };
}
