/**
 * Deterministic synthetic shared-task data for bench:platform: a test set of sentences of 20–30
 * tokens drawn from a Zipf-distributed vocabulary, and systems of differing quality whose
 * outputs are their references with substitutions, deletions, insertions and swaps, so BLEU,
 * chrF and TER rank them non-trivially. Same seed, same data (mulberry32 from @podium/ranking).
 */
import { mulberry32, type Rng } from '@podium/ranking';

/** `xs[i]`, or a RangeError: the generator's indices are always in range. */
function at<T>(xs: ArrayLike<T>, i: number): T {
  const x = xs[i];
  if (x === undefined) throw new RangeError(`index ${i} outside 0..${xs.length - 1}`);
  return x;
}

const SYLLABLES = ['ka', 're', 'mi', 'to', 'su', 'len', 'dar', 'po', 'vi', 'nor', 'el', 'an', 'ti', 'bo', 'ges', 'ur', 'fa', 'lo', 'ne', 'shi', 'ra', 'mon', 'ta', 'ek'];

/** `size` distinct pseudo-words of 1–3 syllables, the same for the same seed. */
export function vocabulary(size: number, seed: number): string[] {
  const rng = mulberry32(seed);
  const words = new Set<string>();
  while (words.size < size) {
    const n = 1 + rng.nextInt(3);
    let w = '';
    for (let k = 0; k < n; k++) w += at(SYLLABLES, rng.nextInt(SYLLABLES.length));
    words.add(w);
  }
  return [...words];
}

/** Draws word ranks with probability ∝ 1/(rank+1) (Zipf, exponent 1), by binary search. */
function zipfSampler(size: number): (rng: Rng) => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let r = 0; r < size; r++) cumulative[r] = total += 1 / (r + 1);
  return (rng) => {
    const u = rng.next() * total;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(cumulative, mid) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface SyntheticInstance {
  id: string;
  source: string;
  reference: string;
}

const MIN_TOKENS = 20;
const MAX_TOKENS = 30;

function sentence(rng: Rng, words: string[], draw: (rng: Rng) => number): string[] {
  const n = MIN_TOKENS + rng.nextInt(MAX_TOKENS - MIN_TOKENS + 1);
  const tokens = Array.from({ length: n - 1 }, () => at(words, draw(rng)));
  tokens.push('.');
  return tokens;
}

/** A test set of `n` instances: ids `seg-000001`…, a source and one reference of 20–30 tokens each. */
export function syntheticTestSet(n: number, seed: number): SyntheticInstance[] {
  const target = vocabulary(4000, seed);
  const source = vocabulary(4000, seed + 1);
  const draw = zipfSampler(4000);
  const rng = mulberry32(seed + 2);
  const width = Math.max(6, String(n).length);
  return Array.from({ length: n }, (_, i) => ({
    id: `seg-${String(i + 1).padStart(width, '0')}`,
    source: sentence(rng, source, draw).join(' '),
    reference: sentence(rng, target, draw).join(' '),
  }));
}

/**
 * Quality in [0.45, 0.95] of each of `systems` systems, spread evenly and shuffled, so the
 * submission order says nothing about the ranking.
 */
export function systemQualities(systems: number, seed: number): number[] {
  const rng = mulberry32(seed + 3);
  const q = Array.from({ length: systems }, (_, s) => 0.45 + (0.5 * s) / Math.max(1, systems - 1));
  for (let i = q.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [q[i], q[j]] = [at(q, j), at(q, i)];
  }
  return q;
}

/**
 * One system's outputs, one line per instance in test-set order. Each reference token is kept
 * with probability ≈ quality (lowered for hard instances, with per-sentence noise); otherwise it
 * is substituted (60 %), dropped (20 %) or followed by an inserted word (20 %); adjacent tokens
 * are swapped with probability (1 − quality) / 4.
 */
export function systemOutputs(instances: readonly SyntheticInstance[], quality: number, system: number, seed: number): string[] {
  const words = vocabulary(4000, seed);
  const draw = zipfSampler(4000);
  const difficulty = mulberry32(seed + 4);
  const rng = mulberry32((seed ^ Math.imul(system + 1, 0x9e3779b1)) >>> 0);
  return instances.map((inst) => {
    const hard = 0.1 * difficulty.nextNormal();
    const keep = Math.min(0.99, Math.max(0.05, quality - hard + 0.05 * rng.nextNormal()));
    const out: string[] = [];
    for (const token of inst.reference.split(' ')) {
      if (rng.next() < keep) {
        out.push(token);
        continue;
      }
      const u = rng.next();
      if (u < 0.6) out.push(at(words, draw(rng)));
      else if (u < 0.8) continue;
      else out.push(token, at(words, draw(rng)));
    }
    for (let k = 0; k + 1 < out.length; k++) {
      if (rng.next() < (1 - quality) / 4) [out[k], out[k + 1]] = [at(out, k + 1), at(out, k)];
    }
    return out.length > 0 ? out.join(' ') : at(words, 0);
  });
}
