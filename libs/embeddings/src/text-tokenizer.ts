import type { Tokenizer } from '@huggingface/tokenizers';
import type { TokenizedText } from '@podium/metrics';

interface TokenizerJson {
  model?: { unk_token?: string; unk_id?: number | null };
  padding?: { pad_id?: number } | null;
}

/**
 * Character offsets of tokens in `text`, by alignment: @huggingface/tokenizers (JS) does not
 * report offsets, so each non-special token's surface (its `##` / `▁` / `Ġ` marker removed) is
 * searched forward in the text, both lower-cased with accents stripped. A token that cannot be
 * found (an unknown token, a byte piece) gets the empty span at the current position; special
 * tokens get [0, 0].
 *
 * @example alignOffsets('The cat', ['[CLS]', 'the', 'cat', '[SEP]'], [true, false, false, true])
 * // [[0, 0], [0, 3], [4, 7], [0, 0]]
 */
export function alignOffsets(text: string, tokens: readonly string[], special: readonly boolean[]): [number, number][] {
  // Folded text and, per folded character, the index of the original character it came from.
  let folded = '';
  const origin: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    const f = fold(ch);
    for (let k = 0; k < f.length; k++) origin.push(i);
    folded += f;
    i += ch.length;
  }
  origin.push(text.length);
  let cursor = 0;
  return tokens.map((t, k) => {
    if (special[k]) return [0, 0];
    const surface = fold(t.replace(/^##/, '').replace(/^[▁Ġ]/, ''));
    const at = surface === '' ? -1 : folded.indexOf(surface, cursor);
    if (at < 0) {
      const here = origin[cursor] ?? text.length;
      return [here, here];
    }
    cursor = at + surface.length;
    const start = origin[at] ?? text.length;
    const last = origin[cursor - 1] ?? text.length;
    const end = last + (String.fromCodePoint(text.codePointAt(last) ?? 0).length || 1);
    return [start, Math.min(end, text.length)];
  });
}

function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * A model's own `tokenizer.json` for single texts, as bert_score encodes them
 * (`sent_encode`: stripped, special tokens added, truncated to the model's length keeping the
 * special tokens): token ids, which tokens are special, and character offsets.
 */
export class TextTokenizer {
  private readonly tokenizer: Tokenizer;
  private readonly added = new Map<string, { id: number; special: boolean }>();
  private readonly unkId: number;
  private readonly specialCount: number;
  /** Special tokens the template puts before the text. */
  private readonly lead: number;
  /** Id used for padding. */
  readonly padId: number;

  constructor(
    tokenizerJson: unknown,
    tokenizerConfig: Record<string, unknown>,
    readonly maxLength: number,
    padId?: number,
  ) {
    const tj = tokenizerJson as TokenizerJson;
    // Required here, not at the top, so that loading the library costs nothing until a model is used.
    const { Tokenizer } = require('@huggingface/tokenizers') as typeof import('@huggingface/tokenizers');
    this.tokenizer = new Tokenizer(tokenizerJson as object, tokenizerConfig);
    for (const [id, tok] of this.tokenizer.get_added_tokens_decoder()) this.added.set(tok.content, { id, special: tok.special });
    const unkToken = tj.model?.unk_token;
    this.unkId = (typeof tj.model?.unk_id === 'number' ? tj.model.unk_id : undefined) ?? (unkToken !== undefined ? this.idOf(unkToken, -1) : -1);
    this.padId = padId ?? tj.padding?.pad_id ?? this.added.get('[PAD]')?.id ?? this.added.get('<pad>')?.id ?? this.tokenizer.token_to_id('[PAD]') ?? 0;
    const sentinel = '\u0001podium\u0001';
    const probe = this.tokenizer.post_processor?.post_process([sentinel], null, true).tokens ?? [sentinel];
    this.lead = Math.max(0, probe.indexOf(sentinel));
    this.specialCount = probe.length - 1;
    if (this.specialCount >= maxLength) throw new Error(`max length ${maxLength} leaves no room for text`);
  }

  private idOf(token: string, fallback: number): number {
    return this.added.get(token)?.id ?? this.tokenizer.token_to_id(token) ?? fallback;
  }

  private postProcess(tokens: string[]): { tokens: string[]; special: boolean[] } {
    const pp = this.tokenizer.post_processor;
    if (pp === null) return { tokens, special: tokens.map(() => false) };
    const out = pp.post_process(tokens, null, true).tokens;
    // The template adds tokens around the text: those are the special ones.
    return { tokens: out, special: out.map((_, k) => k < this.lead || k >= this.lead + tokens.length) };
  }

  /** Tokens, ids, special flags and offsets of one text. */
  encode(text: string): TokenizedText {
    const pieces = this.tokenizer.tokenize(text.trim(), { add_special_tokens: false }).slice(0, this.maxLength - this.specialCount);
    const { tokens, special } = this.postProcess(pieces);
    const ids = tokens.map((t, k) => {
      const id = special[k] ? this.idOf(t, this.unkId) : this.tokenizer.token_to_id(t) ?? this.idOf(t, this.unkId);
      if (id < 0) throw new Error(`token '${t}' is not in the vocabulary and the tokenizer has no unknown token`);
      return id;
    });
    return { text, tokens, ids, special, offsets: alignOffsets(text, tokens, special) };
  }
}
