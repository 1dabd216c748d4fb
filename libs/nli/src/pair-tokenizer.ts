import type { Tokenizer } from '@huggingface/tokenizers';

/** One encoded premise/hypothesis pair, ready to pad into a batch. */
export interface EncodedPair {
  ids: number[];
  typeIds: number[];
  /** True when longest-first truncation removed tokens. */
  truncated: boolean;
}

interface TokenizerJson {
  model?: { unk_token?: string; unk_id?: number | null; vocab?: unknown };
  padding?: { pad_id?: number } | null;
  added_tokens?: { id: number; content: string }[];
}

/**
 * Longest-first truncation of two token sequences to `budget` tokens in total, as the
 * Hugging Face `tokenizers` library (Rust) does for `truncation=True`: only the longer one
 * is cut while the shorter fits in half; when both are too long the shorter (the first on
 * ties) keeps ⌊budget/2⌋ and the longer ⌈budget/2⌉.
 *
 * @example longestFirstLengths(10, 3, 8) // [5, 3]
 */
export function longestFirstLengths(n1: number, n2: number, budget: number): [number, number] {
  if (budget < 0) throw new Error(`truncation budget ${budget} is negative`);
  if (n1 + n2 <= budget) return [n1, n2];
  let [short, long] = n1 <= n2 ? [n1, n2] : [n2, n1];
  if (short > budget) long = short;
  else long = Math.max(short, budget - short);
  if (short + long > budget) {
    short = Math.floor(budget / 2);
    long = short + (budget % 2);
  }
  return n1 <= n2 ? [short, long] : [long, short];
}

/**
 * A model's own Hugging Face tokenizer (`tokenizer.json`), encoding premise/hypothesis
 * pairs with its special tokens and pair type ids, truncated longest-first to `maxLength`.
 */
export class PairTokenizer {
  private readonly tokenizer: Tokenizer;
  private readonly added = new Map<string, number>();
  private readonly unkId: number;
  private readonly pairSpecialCount: number;
  /** Id used for padding. */
  readonly padId: number;

  constructor(
    tokenizerJson: unknown,
    tokenizerConfig: Record<string, unknown>,
    readonly maxLength: number,
    padId?: number,
  ) {
    const tj = tokenizerJson as TokenizerJson;
    // Required here, not at the top, so that loading @podium/nli costs nothing until a model is used.
    const { Tokenizer } = require('@huggingface/tokenizers') as typeof import('@huggingface/tokenizers');
    this.tokenizer = new Tokenizer(tokenizerJson as object, tokenizerConfig);
    for (const [id, tok] of this.tokenizer.get_added_tokens_decoder()) this.added.set(tok.content, id);
    const unkToken = tj.model?.unk_token;
    this.unkId =
      (typeof tj.model?.unk_id === 'number' ? tj.model.unk_id : undefined) ??
      (unkToken !== undefined ? this.idOf(unkToken, -1) : -1);
    this.padId =
      padId ?? tj.padding?.pad_id ?? this.added.get('[PAD]') ?? this.added.get('<pad>') ?? this.tokenizer.token_to_id('[PAD]') ?? 0;
    this.pairSpecialCount = this.postProcess([], []).ids.length;
    if (this.pairSpecialCount >= maxLength) throw new Error(`max length ${maxLength} leaves no room for text`);
  }

  private idOf(token: string, fallback: number): number {
    return this.added.get(token) ?? this.tokenizer.token_to_id(token) ?? fallback;
  }

  /** Sub-word tokens of one text, without special tokens. */
  tokenize(text: string): string[] {
    return this.tokenizer.tokenize(text, { add_special_tokens: false });
  }

  /** Number of tokens the pair template adds (e.g. 3 for `[CLS] A [SEP] B [SEP]`). */
  get specialTokensPerPair(): number {
    return this.pairSpecialCount;
  }

  private postProcess(a: string[], b: string[]): { ids: number[]; typeIds: number[] } {
    const pp = this.tokenizer.post_processor;
    let tokens: string[];
    let typeIds: number[];
    if (pp === null) {
      tokens = [...a, ...b];
      typeIds = [...a.map(() => 0), ...b.map(() => 1)];
    } else {
      const out = pp.post_process(a, b, true);
      if (out.tokens_pair && !out.token_type_ids) {
        tokens = [...out.tokens, ...out.tokens_pair];
        typeIds = [...out.tokens.map(() => 0), ...out.tokens_pair.map(() => 1)];
      } else {
        tokens = out.tokens;
        typeIds = out.token_type_ids ?? tokens.map(() => 0);
      }
    }
    const ids = tokens.map((t) => {
      const id = this.idOf(t, this.unkId);
      if (id < 0) throw new Error(`token '${t}' is not in the vocabulary and the tokenizer has no unknown token`);
      return id;
    });
    return { ids, typeIds };
  }

  /** Encodes (premise, hypothesis) with special tokens, truncated longest-first to `maxLength`. */
  encodePair(premise: string, hypothesis: string): EncodedPair {
    return this.encodeTokens(this.tokenize(premise), this.tokenize(hypothesis));
  }

  /** As {@link encodePair} for already tokenised texts. */
  encodeTokens(premise: string[], hypothesis: string[]): EncodedPair {
    const [n1, n2] = longestFirstLengths(premise.length, hypothesis.length, this.maxLength - this.pairSpecialCount);
    const truncated = n1 < premise.length || n2 < hypothesis.length;
    return { ...this.postProcess(premise.slice(0, n1), hypothesis.slice(0, n2)), truncated };
  }
}
