/** Per-instance comparison of two systems on one metric. */
export interface InstancePair {
  instanceId: string;
  position: number;
  source: string;
  references: readonly string[] | null;
  outputA: string;
  outputB: string;
  scoreA: number;
  scoreB: number;
  /** Oriented difference: positive when A is better (A − B, or B − A for lower-is-better metrics). */
  diff: number;
}

interface ScoreRow {
  instanceId: string;
  position: number;
  source: string;
  references: readonly string[] | null;
  output: string;
  score: number;
}

/** Joins two systems' instance scores by instance id (instances missing from either are left out). */
export function pairInstances(a: readonly ScoreRow[], b: readonly ScoreRow[], higherIsBetter: boolean): InstancePair[] {
  const byId = new Map(b.map((r) => [r.instanceId, r]));
  const sign = higherIsBetter ? 1 : -1;
  const out: InstancePair[] = [];
  for (const ra of a) {
    const rb = byId.get(ra.instanceId);
    if (!rb) continue;
    out.push({
      instanceId: ra.instanceId, position: ra.position, source: ra.source, references: ra.references,
      outputA: ra.output, outputB: rb.output, scoreA: ra.score, scoreB: rb.score, diff: sign * (ra.score - rb.score),
    });
  }
  return out.sort((x, y) => x.position - y.position);
}

/** Wins, ties and losses of A against B (exact ties only, as the API counts them). */
export function winTieLoss(pairs: readonly InstancePair[]): { wins: number; ties: number; losses: number } {
  let wins = 0;
  let ties = 0;
  let losses = 0;
  for (const p of pairs) {
    if (p.diff > 0) wins++;
    else if (p.diff < 0) losses++;
    else ties++;
  }
  return { wins, ties, losses };
}

/** The `n` instances where the two systems differ most, largest |difference| first (ties by position). */
export function largestDifferences(pairs: readonly InstancePair[], n: number): InstancePair[] {
  return [...pairs].filter((p) => p.diff !== 0).sort((x, y) => Math.abs(y.diff) - Math.abs(x.diff) || x.position - y.position).slice(0, n);
}
