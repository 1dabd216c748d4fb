/**
 * DiscoScore's foci (nouns, Zhao et al. 2023 §3, "Choice of Focus": NN) and sentences, from
 * wink-nlp's English tagger, mapped onto an encoder's tokens by character offsets.
 */
import type { ItsFunction, WinkMethods } from 'wink-nlp';
import type WinkNlp from 'wink-nlp';
import type WinkModel from 'wink-eng-lite-web-model';
import type { TokenizedText } from '../../embedding';

let nlp: WinkMethods | undefined;
function engine(): WinkMethods {
  // Loading the model takes ~0.3 s: once, on first use.
  if (!nlp) {
    const winkNLP = require('wink-nlp') as typeof WinkNlp;
    const model = require('wink-eng-lite-web-model') as typeof WinkModel;
    nlp = winkNLP(model);
  }
  return nlp;
}

/** A word of the text as the tagger reads it. */
export interface TaggedWord {
  readonly text: string;
  readonly lemma: string;
  /** Universal Dependencies part of speech. */
  readonly pos: string;
  /** Character span `[start, end)` in the text. */
  readonly start: number;
  readonly end: number;
  /** Index of the sentence it is in. */
  readonly sentence: number;
}

/** Tags a text: words with lemma, POS, character span and sentence index. */
export function tagText(text: string): TaggedWord[] {
  /* eslint-disable @typescript-eslint/unbound-method -- wink-nlp's its.* helpers are plain functions that its typings declare as methods */
  const n = engine();
  const its = n.its;
  const doc = n.readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out<string>(its.value);
  const pos = tokens.out<string>(its.pos);
  const lemma = tokens.out<string>(its.lemma as unknown as ItsFunction<string>);
  const spans = doc.sentences().out<[number, number]>(its.span as unknown as ItsFunction<[number, number]>);
  /* eslint-enable @typescript-eslint/unbound-method */
  const sentenceOf = new Int32Array(values.length);
  spans.forEach((span, s) => {
    const first = Number(span[0]);
    const last = Number(span[1]);
    for (let k = first; k <= last; k++) sentenceOf[k] = s;
  });
  const words: TaggedWord[] = [];
  let at = 0;
  values.forEach((v, k) => {
    const start = text.indexOf(v, at);
    // wink-nlp keeps token values verbatim; a value not found (normalised) keeps the cursor.
    const s = start < 0 ? at : start;
    const e = start < 0 ? at : start + v.length;
    at = e;
    words.push({ text: v, lemma: (lemma[k] ?? v).toLowerCase(), pos: pos[k] ?? 'X', start: s, end: e, sentence: sentenceOf[k] as number });
  });
  return words;
}

/** Nouns (NOUN, PROPN): DiscoScore's NN foci. */
export function isFocusWord(w: TaggedWord): boolean {
  return (w.pos === 'NOUN' || w.pos === 'PROPN') && w.end > w.start;
}

/** Encoder tokens (not special) whose character span overlaps `[start, end)`. */
export function tokensOfSpan(t: TokenizedText, start: number, end: number): number[] {
  const out: number[] = [];
  t.offsets.forEach(([a, b], k) => {
    if (!t.special[k] && a < end && b > start) out.push(k);
  });
  return out;
}

/**
 * The focus–token graph of DS-Focus: focus keys (noun lemmas, sorted) and, per focus, the
 * token position of each occurrence (the last word piece of the noun, as the authors' code).
 * The adjacency matrix A (foci × tokens) has A[v][u] = 1 for those positions.
 */
export function focusGraph(t: TokenizedText, words: readonly TaggedWord[] = tagText(t.text)): { foci: string[]; positions: number[][] } {
  const byKey = new Map<string, number[]>();
  for (const w of words) {
    if (!isFocusWord(w)) continue;
    const toks = tokensOfSpan(t, w.start, w.end);
    if (toks.length === 0) continue; // truncated away by the encoder
    const list = byKey.get(w.lemma) ?? [];
    list.push(toks[toks.length - 1] as number);
    byKey.set(w.lemma, list);
  }
  const foci = [...byKey.keys()].sort();
  return { foci, positions: foci.map((f) => byKey.get(f) as number[]) };
}

/**
 * The sentence graph of DS-SENT (T:1423–1424): A[i][j] (j > i) = 1/(j − i) when sentences i
 * and j share a focus (`U`), or (number of shared foci)/(j − i) (`W`); 0 otherwise.
 */
export function sentenceGraph(words: readonly TaggedWord[], weighting: 'U' | 'W'): number[][] {
  const count = words.reduce((m, w) => Math.max(m, w.sentence + 1), 0);
  const fociOf = Array.from({ length: count }, () => new Set<string>());
  for (const w of words) if (isFocusWord(w)) (fociOf[w.sentence] as Set<string>).add(w.lemma);
  const a = Array.from({ length: count }, () => new Array<number>(count).fill(0));
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      let shared = 0;
      for (const f of fociOf[i] as Set<string>) if ((fociOf[j] as Set<string>).has(f)) shared++;
      if (shared > 0) (a[i] as number[])[j] = (weighting === 'U' ? 1 : shared) / (j - i);
    }
  }
  return a;
}

/**
 * DS-Focus with Entity foci (Zhao et al. 2023 §3, "Choice of Focus": semantic entities; the
 * authors' `focus_diff.data_process`): the noun foci of {@link focusGraph} joined into one
 * entity per connected component of the graph whose edges link two nouns with word vectors of
 * cosine similarity above `threshold` (Dep2Vec in the paper, 0.8 for DS-Focus); a noun without
 * a vector stays alone. An entity's key is its nouns, sorted, joined by `-`; its positions
 * are its nouns' positions in that order. Foci match across hypothesis and reference by key.
 */
export function entityFocusGraph(
  graph: { foci: readonly string[]; positions: readonly (readonly number[])[] },
  vectorOf: (word: string) => readonly number[] | undefined,
  threshold: number,
): { foci: string[]; positions: number[][] } {
  const n = graph.foci.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const cosine = (a: readonly number[], b: readonly number[]): number => {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let d = 0; d < a.length; d++) {
      ab += (a[d] as number) * (b[d] as number);
      aa += (a[d] as number) ** 2;
      bb += (b[d] as number) ** 2;
    }
    return ab / (Math.sqrt(aa) * Math.sqrt(bb));
  };
  for (let i = 0; i < n; i++) {
    const a = vectorOf(graph.foci[i] as string);
    if (!a) continue;
    for (let j = i + 1; j < n; j++) {
      const b = vectorOf(graph.foci[j] as string);
      if (b && cosine(a, b) > threshold) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) groups.set(find(i), [...(groups.get(find(i)) ?? []), i]);
  const entities = [...groups.values()].map((members) => {
    const words = members.map((i) => graph.foci[i] as string).sort();
    const positions = words.flatMap((w) => [...(graph.positions[graph.foci.indexOf(w)] as readonly number[])]);
    return { key: words.join('-'), positions };
  });
  entities.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return { foci: entities.map((e) => e.key), positions: entities.map((e) => e.positions) };
}

/** The lower-cased lemmas of the nouns (DiscoScore's NN foci) of texts: the words Entity foci need vectors for. */
export function nounLemmas(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const w of tagText(t)) if (isFocusWord(w)) out.add(w.lemma);
  return out;
}
