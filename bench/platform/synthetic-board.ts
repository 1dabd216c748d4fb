/**
 * A leaderboard document with the shape and size of a real one at S systems (S(S − 1)/2 pairs,
 * every field of the schema present), its values random: for measuring how boards are stored
 * and served (`npm run bench:serving`), never for analysis. Built by walking the board's zod
 * schema, so a field added to the schema is in the document without a change here.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { computedLeaderboardSchema, PAIRED_TESTS, type ComputedLeaderboard } from '@podium/leaderboard';
import { mulberry32 } from '@podium/ranking';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  entries?: Record<string, string>;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { def: Def }).def;

/** Array lengths by field name (what a real board of S systems has); other arrays get 3 items. */
function lengths(systems: number): Record<string, number> {
  return { systems, pairs: (systems * (systems - 1)) / 2, testResults: PAIRED_TESTS.length, values: 6, methods: 6, availableMetrics: 3, notes: 1, significanceWarnings: 0, clusterTests: 4, btComponents: 1 };
}

const INTEGER_PARENTS = new Set(['rank', 'cluster']);
const P_VALUE = /^p($|[A-Z])/;

export function syntheticBoard(systems: number, seed: number, options: { validate?: boolean } = {}): ComputedLeaderboard {
  const rng = mulberry32(seed);
  const random = () => rng.next();
  const ids = Array.from({ length: systems }, () => randomUUID());
  const len = lengths(systems);
  let system = 0;
  let pair = 0;
  const pairsOf: [number, number][] = [];
  for (let a = 0; a < systems; a++) for (let b = a + 1; b < systems; b++) pairsOf.push([a, b]);
  const walk = (schema: z.ZodType, name: string, parent = ''): unknown => {
    const d = defOf(schema);
    switch (d.type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(d.shape ?? {})) out[k] = walk(v, k, name);
        if (name === 'systems') system++;
        if (name === 'pairs') pair++;
        return out;
      }
      case 'array':
        return Array.from({ length: len[name] ?? 3 }, () => walk(d.element as z.ZodType, name, parent));
      case 'nullable':
        return walk(d.innerType as z.ZodType, name, parent);
      case 'number':
        // Ranks and clusters are integers in GraphQL (numbers in the schema); p-values: most pairs
        // of a large phase are significant beyond double precision (p = 0), as real boards show.
        if ((schema as unknown as { isInt?: boolean }).isInt || INTEGER_PARENTS.has(parent)) return Math.floor(random() * systems);
        if (P_VALUE.test(name) || parent === 'tests') return random() < 0.8 ? 0 : random();
        return random() * 100;
      case 'boolean':
        return random() < 0.5;
      case 'enum':
        return Object.values(d.entries ?? {})[0];
      case 'string': {
        if (name === 'submissionId' || name === 'systems') return ids[system % systems];
        if (name === 'aSubmissionId') return ids[(pairsOf[pair] ?? [0, 0])[0]];
        if (name === 'bSubmissionId') return ids[(pairsOf[pair] ?? [0, 0])[1]];
        if (name === 'system') return `sys-${String(system).padStart(3, '0')}`;
        if (name === 'a' || name === 'b') return `sys-${String((pairsOf[pair] ?? [0, 0])[name === 'a' ? 0 : 1]).padStart(3, '0')}`;
        if (name === 'test' || name === 'pTest') return PAIRED_TESTS[Math.floor(random() * PAIRED_TESTS.length)]?.key ?? 'ttest';
        return `${name}-${Math.floor(random() * 1000)}`;
      }
      default:
        throw new Error(`syntheticBoard: no value for a ${d.type} (${name})`);
    }
  };
  const board = walk(computedLeaderboardSchema, 'board');
  // `validate: false` (bench:arena, 499,500 pairs): the walk follows the schema already; parsing it again costs minutes there.
  return options.validate === false ? (board as ComputedLeaderboard) : computedLeaderboardSchema.parse(board);
}
