// The public/private split of a phase's instances (docs/adr/0014-no-oracles-split-commitment.md),
// as Codabench does it: while the phase is unpublished, boards and the teams' own scores use the
// public part only; once published, the final ranking uses the private part (or all).
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Largest list of public instance ids an organiser may give. */
export const MAX_SPLIT_IDS = 200_000;

export const instanceSplitSchema = z
  .object({
    publicIds: z.array(z.string().min(1).max(200)).min(1, 'publicIds must name at least one instance').max(MAX_SPLIT_IDS).optional(),
    publicFraction: z.number().gt(0, 'publicFraction must be in (0, 1)').lt(1, 'publicFraction must be in (0, 1)').optional(),
    seed: z.number().int().min(0).max(0x7fffffff).default(0),
    finalOn: z.enum(['private', 'all']).default('private'),
  })
  .refine((s) => (s.publicIds === undefined) !== (s.publicFraction === undefined), { message: 'give exactly one of publicIds and publicFraction', path: ['publicIds'] });

/** A phase's split as stored in `phase.split`. */
export type InstanceSplit = z.infer<typeof instanceSplitSchema>;

/** The stored JSON of a split, or null (none, or not a valid split: treated as none). */
export function parseStoredSplit(value: unknown): InstanceSplit | null {
  if (value === null || value === undefined) return null;
  const r = instanceSplitSchema.safeParse(value);
  return r.success ? r.data : null;
}

/**
 * The public positions of a test set (ids in position order). `publicIds`: the positions of
 * those ids (ids not in the test set are ignored). `publicFraction` f: the ids ordered by
 * sha256(`${seed}:${id}`) (hex, then by id), the first round(f·n) of them (at least 1, at most
 * n − 1 when n ≥ 2) — reproducible by anyone who knows the seed, which is revealed on publishing.
 */
export function publicPositions(externalIds: readonly string[], split: InstanceSplit): number[] {
  const n = externalIds.length;
  if (split.publicIds) {
    const wanted = new Set(split.publicIds);
    return externalIds.flatMap((id, p) => (wanted.has(id) ? [p] : []));
  }
  const f = split.publicFraction ?? 0;
  const k = n < 2 ? n : Math.min(n - 1, Math.max(1, Math.round(f * n)));
  const keyed = externalIds.map((id, p) => ({ p, id, h: createHash('sha256').update(`${split.seed}:${id}`).digest('hex') }));
  keyed.sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return keyed
    .slice(0, k)
    .map((x) => x.p)
    .sort((a, b) => a - b);
}

/** Which part of the instances scores are computed on now. */
export type ScoringPartName = 'all' | 'public' | 'private';

export interface ScoringPart {
  part: ScoringPartName;
  /** Positions in test-set order; null = every instance. */
  positions: number[] | null;
  /** Instances in the test set. */
  total: number;
}

/**
 * The part a phase ranks and shows scores on now: no split → all; unpublished → the public part;
 * published → the private part (or all, as configured).
 */
export function scoringPart(phase: { publishedAt: Date | null; split: unknown }, externalIds: readonly string[]): ScoringPart {
  const split = parseStoredSplit(phase.split);
  const total = externalIds.length;
  if (!split) return { part: 'all', positions: null, total };
  const pub = publicPositions(externalIds, split);
  if (!phase.publishedAt) return { part: 'public', positions: pub, total };
  if (split.finalOn === 'all') return { part: 'all', positions: null, total };
  const isPublic = new Set(pub);
  return { part: 'private', positions: externalIds.flatMap((_, p) => (isPublic.has(p) ? [] : [p])), total };
}

/** "ranked on the private part: 700 of 1000 instances" (null for all instances without a split). */
export function scoringPartNote(part: ScoringPart, hasSplit: boolean): string | null {
  if (!hasSplit) return null;
  const n = part.positions?.length ?? part.total;
  return `ranked on the ${part.part === 'all' ? 'whole test set' : `${part.part} part`}: ${n} of ${part.total} instances`;
}

/** Picks the rows of a flat row-major array (width numbers per row) at the given positions. */
export function pickRows(data: ArrayLike<number>, width: number, positions: readonly number[]): Float64Array {
  const out = new Float64Array(positions.length * width);
  positions.forEach((p, k) => {
    for (let j = 0; j < width; j++) out[k * width + j] = data[p * width + j] ?? 0;
  });
  return out;
}
