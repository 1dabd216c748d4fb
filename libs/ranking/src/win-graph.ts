import { at } from './checked';

/** Strongly connected components of the win graph and their dominance order. */
export interface WinGraphStructure {
  /** component[i]: component id of system i; ids ordered by tier, then by smallest member. */
  component: Int32Array;
  /** tier[i]: longest chain of components above system i's component (0 = top). */
  tier: Int32Array;
  /** members[c]: systems of component c, ascending. */
  members: number[][];
  /** dominates[c][d]: a chain of wins leads from component c to component d. */
  dominates: boolean[][];
  /** Number of distinct tiers. */
  tiers: number;
}

/**
 * Splits the win graph (edge i → j when `beat(i, j)`: i won at least one game against j) into
 * strongly connected components (Tarjan 1972, SIAM J. Comput. 1:146), orders components by
 * dominance (tier = longest path in the condensation from a component nobody outside beats) and
 * computes reachability between components (transitive closure).
 * @example winGraphComponents(3, (i, j) => i < j).tier; // Int32Array [0, 1, 2]: a strict chain
 */
export function winGraphComponents(k: number, beat: (i: number, j: number) => boolean): WinGraphStructure {
  const adj: number[][] = Array.from({ length: k }, (_, i) => {
    const out: number[] = [];
    for (let j = 0; j < k; j++) if (i !== j && beat(i, j)) out.push(j);
    return out;
  });
  const edges = (v: number): number[] => adj[v] ?? [];
  // Tarjan, iterative.
  const index = new Int32Array(k).fill(-1);
  const low = new Int32Array(k);
  const onStack = new Uint8Array(k);
  const stack: number[] = [];
  const raw = new Int32Array(k).fill(-1);
  let counter = 0;
  let nComp = 0;
  for (let s = 0; s < k; s++) {
    if (index[s] !== -1) continue;
    // work frames: [vertex, next edge to follow]
    const work: [number, number][] = [[s, 0]];
    index[s] = low[s] = counter++;
    stack.push(s);
    onStack[s] = 1;
    for (let top = work.at(-1); top; top = work.at(-1)) {
      const [v, next] = top;
      const u = edges(v)[next];
      if (u !== undefined) {
        top[1]++;
        if (index[u] === -1) {
          index[u] = low[u] = counter++;
          stack.push(u);
          onStack[u] = 1;
          work.push([u, 0]);
        } else if (onStack[u]) low[v] = Math.min(at(low, v), at(index, u));
      } else {
        work.pop();
        const parent = work.at(-1);
        if (parent) low[parent[0]] = Math.min(at(low, parent[0]), at(low, v));
        if (low[v] === index[v]) {
          for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
            onStack[w] = 0;
            raw[w] = nComp;
            if (w === v) break;
          }
          nComp++;
        }
      }
    }
  }
  // Condensation edges and reachability (components as rows of booleans).
  const reach: boolean[][] = Array.from({ length: nComp }, () => new Array<boolean>(nComp).fill(false));
  raw.forEach((ci, i) => {
    for (const j of edges(i)) {
      const cj = at(raw, j);
      const row = reach[ci];
      if (row && ci !== cj) row[cj] = true;
    }
  });
  const direct = reach.map((r) => r.slice());
  for (let m = 0; m < nComp; m++) {
    const viaM = reach[m] ?? [];
    for (const row of reach) if (row[m]) viaM.forEach((r, b) => r && (row[b] = true));
  }
  // Tarjan emits components in reverse topological order: the last one found has no predecessor.
  const rawTier = new Int32Array(nComp);
  for (let c = nComp - 1; c >= 0; c--) (direct[c] ?? []).forEach((edge, d) => edge && (rawTier[d] = Math.max(at(rawTier, d), at(rawTier, c) + 1)));
  const firstMember = new Int32Array(nComp).fill(k);
  raw.forEach((c, i) => (firstMember[c] = Math.min(at(firstMember, c), i)));
  const order = Array.from({ length: nComp }, (_, c) => c).sort((a, b) => at(rawTier, a) - at(rawTier, b) || at(firstMember, a) - at(firstMember, b));
  const renum = new Int32Array(nComp);
  order.forEach((c, id) => (renum[c] = id));
  const component = new Int32Array(k);
  const tier = new Int32Array(k);
  const members: number[][] = Array.from({ length: nComp }, () => []);
  raw.forEach((c, i) => {
    const id = at(renum, c);
    component[i] = id;
    tier[i] = at(rawTier, c);
    members[id]?.push(i);
  });
  const dominates = order.map((a) => order.map((b) => reach[a]?.[b] === true));
  let tiers = 0;
  for (const t of rawTier) tiers = Math.max(tiers, t + 1);
  return { component, tier, members, dominates, tiers };
}
