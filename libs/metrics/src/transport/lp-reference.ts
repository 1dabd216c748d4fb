/**
 * Test-only: the transportation problem as a linear programme for HiGHS (the `highs` npm
 * package, a devDependency), the independent reference the transport solver and the
 * MoverScore / XMoverScore reference computations are checked against. Not exported from the
 * library.
 */
import highsLoader from 'highs';

type Highs = Awaited<ReturnType<typeof highsLoader>>;
let loaded: Promise<Highs> | undefined;

/** The HiGHS solver, loaded once per test file. */
export function loadHighs(): Promise<Highs> {
  loaded ??= highsLoader();
  return loaded;
}

function num(x: number): string {
  return x.toPrecision(17);
}

/** Minimal cost and flow of the pyemd-style (ÊMD) transport problem, by HiGHS's simplex. */
export function lpTransport(
  highs: Highs,
  a: readonly number[],
  b: readonly number[],
  cost: readonly number[],
  extraMassPenalty?: number,
): { distance: number; cost: number; flow: number[] } {
  const n = a.length;
  const m = b.length;
  const sumA = a.reduce((s, x) => s + x, 0);
  const sumB = b.reduce((s, x) => s + x, 0);
  const penalty = extraMassPenalty ?? Math.max(...cost);
  const v = (i: number, j: number): string => `x${i}_${j}`;
  const terms: string[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) terms.push(`${num(cost[i * m + j] as number)} ${v(i, j)}`);
  const lines = ['Minimize', ` obj: ${terms.join(' + ')}`, 'Subject To'];
  // The heavier side ships at most its mass; the lighter side exactly its mass.
  const rowOp = sumA > sumB ? '<=' : '=';
  const colOp = sumB > sumA ? '<=' : '=';
  for (let i = 0; i < n; i++) {
    lines.push(` r${i}: ${Array.from({ length: m }, (_, j) => v(i, j)).join(' + ')} ${rowOp} ${num(a[i] as number)}`);
  }
  for (let j = 0; j < m; j++) {
    lines.push(` c${j}: ${Array.from({ length: n }, (_, i) => v(i, j)).join(' + ')} ${colOp} ${num(b[j] as number)}`);
  }
  lines.push('End', '');
  const result = highs.solve(lines.join('\n'), {
    primal_feasibility_tolerance: 1e-10,
    dual_feasibility_tolerance: 1e-10,
    solver: 'simplex',
  });
  if (result.Status !== 'Optimal') throw new Error(`HiGHS: ${result.Status}`);
  const flow: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const col = result.Columns[v(i, j)];
      const f = col && 'Primal' in col ? col.Primal : 0;
      flow.push(f);
      total += f * (cost[i * m + j] as number);
    }
  }
  return { distance: total + Math.abs(sumA - sumB) * penalty, cost: total, flow };
}

/** mulberry32: a small seeded generator for reproducible random instances. */
export function seededRandom(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}
