import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { longestFirstLengths, PairTokenizer } from './pair-tokenizer';
import { TEST_MODEL_DIR } from './testing/test-model';

describe('longestFirstLengths', () => {
  // Expected values follow the Hugging Face tokenizers (Rust) LongestFirst strategy in
  // tokenizers/src/utils/truncation.rs: cut only the longer input when the shorter fits in
  // half the budget; otherwise floor(budget/2) for the shorter (the first on ties) and the
  // rest for the longer.
  it('keeps both sequences when they fit', () => {
    expect(longestFirstLengths(3, 4, 10)).toEqual([3, 4]);
  });
  it('cuts only the longer premise when the hypothesis is short', () => {
    expect(longestFirstLengths(10, 3, 8)).toEqual([5, 3]);
  });
  it('cuts only the longer hypothesis when the premise is short', () => {
    expect(longestFirstLengths(2, 30, 8)).toEqual([2, 6]);
  });
  it('splits an odd budget between two long sequences, the extra token to the longer', () => {
    expect(longestFirstLengths(10, 10, 7)).toEqual([3, 4]);
    expect(longestFirstLengths(50, 9, 7)).toEqual([4, 3]);
  });
});

describe('PairTokenizer with the test model tokenizer', () => {
  const tok = new PairTokenizer(JSON.parse(readFileSync(join(TEST_MODEL_DIR, 'tokenizer.json'), 'utf8')), {}, 12);

  it('adds [CLS] A [SEP] B [SEP] with type ids 0 for the premise and 1 for the hypothesis', () => {
    const e = tok.encodePair('The cat', 'a dog');
    // ids from the committed tokenizer.json: [CLS]=2, [SEP]=3
    expect(e.ids[0]).toBe(2);
    expect(e.ids.filter((id) => id === 3)).toHaveLength(2);
    expect(e.typeIds).toEqual([0, 0, 0, 0, 1, 1, 1]);
    expect(e.truncated).toBe(false);
    expect(tok.specialTokensPerPair).toBe(3);
  });

  it('truncates a long premise to the max length, keeping the hypothesis whole', () => {
    const e = tok.encodePair('the cat sat on the mat and the dog sat on the mat', 'a dog');
    expect(e.ids).toHaveLength(12);
    expect(e.truncated).toBe(true);
    expect(e.typeIds.filter((t) => t === 1)).toHaveLength(3); // "a dog [SEP]"
  });

  it('lower-cases and splits unknown words into letter pieces, never [UNK]', () => {
    expect(tok.tokenize('Xylophone')).toEqual(['x', '##y', '##l', '##o', '##p', '##h', '##o', '##n', '##e']);
  });
});
