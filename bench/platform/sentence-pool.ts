import { mulberry32 } from '@podium/ranking';

const WORDS = 'the a of to and in is was for on that with as by at from his her it an were are which this be or has had not but their also its one after new first two who they been have more other into over than'.split(' ');

/** Sentence pairs in {@link sentencePool}. */
export const POOL = 400;

/**
 * A pool of sentence pairs of rising quality (hypothesis = reference with a share of words
 * replaced): the sentences whose BLEU statistics bench:incremental-board and bench:serving
 * --recompute give their synthetic submissions.
 */
export function sentencePool(): { hyp: string; ref: string }[] {
  const rng = mulberry32(28);
  return Array.from({ length: POOL }, (_, p) => {
    const len = 8 + rng.nextInt(25);
    const ref = Array.from({ length: len }, () => WORDS[rng.nextInt(WORDS.length)] ?? 'x');
    const keep = p / POOL;
    const hyp = ref.map((w) => (rng.next() < keep ? w : (WORDS[rng.nextInt(WORDS.length)] ?? 'y')));
    return { hyp: hyp.join(' '), ref: ref.join(' ') };
  });
}
