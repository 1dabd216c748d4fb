/**
 * Generates `models/test-nli-tiny/`: a tiny NLI "cross-encoder" whose behaviour is known in
 * closed form, so tests can predict its probabilities exactly. Deterministic: the same bytes
 * on every run (checked by libs/nli/src/test-model.spec.ts against models/manifest.json).
 *
 *   node -r @swc-node/register models/make-test-model.ts [OUT_DIR]   (default models/test-nli-tiny)
 *
 * Model (inputs input_ids, attention_mask, token_type_ids: int64 [batch, seq]; output logits
 * float [batch, 3] in the label order contradiction, entailment, neutral):
 *   P, H  = bag of token types of the premise (type id 0) and hypothesis (type id 1), masked;
 *   r     = |content types of H that occur in P| / max(1, |content types of H|)   (word overlap)
 *   neg   = |[P has a negation word] − [H has one]|                               (0 or 1)
 *   num   = [H has a number token that P lacks]                                   (0 or 1)
 *   logit_c = 4·neg + 4·num − 1.5
 *   logit_e = 4·r − 2·neg − 2·num − 2
 *   logit_n = −2·r + 1
 * Content types are whole words and numbers of the vocabulary; special tokens, punctuation,
 * single letters, `##` pieces and negation words are not content. Unknown words fall apart
 * into letter pieces and so do not count.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataType, encodeModel, floatTensor, int64Tensor, node, valueInfo } from './onnx-graph';
import { TEST_MODEL_WORDS } from './test-model-words';

/** Label order of the generated model (deliberately not the usual e/n/c). */
export const TEST_MODEL_LABELS = ['contradiction', 'entailment', 'neutral'] as const;

/** Feature-to-logit weights, rows r, neg, num; columns in {@link TEST_MODEL_LABELS} order. */
export const TEST_MODEL_WEIGHTS = [
  [0, 4, -2],
  [4, -2, 0],
  [4, -2, 0],
] as const;
/** Logit biases in {@link TEST_MODEL_LABELS} order. */
export const TEST_MODEL_BIAS = [-1.5, -2, 1] as const;
/** Longest input (special tokens included) the model accepts. */
export const TEST_MODEL_MAX_LENGTH = 128;

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const PUNCT = Array.from(`.,'"!?-:;()%$&/`);
const LETTERS = Array.from('abcdefghijklmnopqrstuvwxyz');
const NEGATIONS = [
  'not', 'no', 'never', 'nobody', 'nothing', 'none', 'neither', 'nor', 'nowhere', 'cannot', 'without',
  'don', 'doesn', 'didn', 'isn', 'aren', 'wasn', 'weren', 'won', 'haven', 'hasn', 'hadn', 'shouldn',
  'wouldn', 'couldn',
];
const NUMBER_WORDS = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven',
  'twelve', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred',
  'thousand', 'million', 'billion',
];
// Everyday words for readable test sentences, beyond the news vocabulary.
const EVERYDAY_WORDS = [
  'cat', 'cats', 'dog', 'dogs', 'mat', 'sat', 'sit', 'sits', 'ran', 'run', 'runs', 'park', 'garden',
  'sleeps', 'sleeping', 'eats', 'eating', 'apple', 'apples', 'bread', 'coffee', 'tea', 'red', 'blue',
  'green', 'pm', 'am', 'train', 'bus', 'arrives', 'leaves', 'meeting', 'table', 'kitchen', 'sky',
];
const NUMBERS = Array.from({ length: 101 }, (_, i) => String(i));
const DIGIT_PIECES = Array.from({ length: 10 }, (_, i) => `##${i}`);

/** A vocabulary entry with the NLI test model's per-token flags. */
export interface VocabEntry {
  token: string;
  content: number;
  negation: number;
  number: number;
}

/** The vocabulary in id order, with the per-token feature flags baked into the graph. */
export function testModelVocab(): VocabEntry[] {
  const entries: VocabEntry[] = [];
  const seen = new Set<string>();
  const add = (token: string, flags: Partial<Omit<VocabEntry, 'token'>> = {}) => {
    if (seen.has(token)) return;
    seen.add(token);
    entries.push({ token, content: flags.content ?? 0, negation: flags.negation ?? 0, number: flags.number ?? 0 });
  };
  SPECIALS.forEach((t) => add(t));
  PUNCT.forEach((t) => add(t));
  LETTERS.forEach((t) => add(t));
  LETTERS.forEach((t) => add(`##${t}`));
  NEGATIONS.forEach((t) => add(t, { negation: 1 }));
  NUMBERS.forEach((t) => add(t, { content: 1, number: 1 }));
  DIGIT_PIECES.forEach((t) => add(t, { number: 1 }));
  NUMBER_WORDS.forEach((t) => add(t, { content: 1, number: 1 }));
  TEST_MODEL_WORDS.forEach((t) => add(t, { content: 1 }));
  EVERYDAY_WORDS.forEach((t) => add(t, { content: 1 }));
  return entries;
}

/** The test models' WordPiece `tokenizer.json` (lower-casing BERT normaliser, [CLS] … [SEP]). */
export function tokenizerJson(vocab: VocabEntry[]): unknown {
  const ids = new Map(vocab.map((v, i) => [v.token, i]));
  const special = (content: string) => ({
    id: ids.get(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const tok = (id: string, typeId: number) => ({ SpecialToken: { id, type_id: typeId } });
  const seq = (id: 'A' | 'B', typeId: number) => ({ Sequence: { id, type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [tok('[CLS]', 0), seq('A', 0), tok('[SEP]', 0)],
      pair: [tok('[CLS]', 0), seq('A', 0), tok('[SEP]', 0), seq('B', 1), tok('[SEP]', 1)],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [ids.get(t)], tokens: [t] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(ids),
    },
  };
}

function configJson(vocabSize: number): unknown {
  const id2label = Object.fromEntries(TEST_MODEL_LABELS.map((l, i) => [String(i), l]));
  const label2id = Object.fromEntries(TEST_MODEL_LABELS.map((l, i) => [l, i]));
  return {
    _comment: 'Podium test model generated by models/make-test-model.ts; not a trained model.',
    architectures: ['PodiumTinyNliForSequenceClassification'],
    model_type: 'bert',
    id2label,
    label2id,
    max_position_embeddings: TEST_MODEL_MAX_LENGTH,
    type_vocab_size: 2,
    vocab_size: vocabSize,
  };
}

function onnxModel(vocab: VocabEntry[]): Uint8Array {
  const V = vocab.length;
  const f32 = (xs: readonly number[]) => Float32Array.from(xs);
  const axes = (name: string, a: number) => int64Tensor(name, [1], [a]);
  const bag = (maskName: string, out: string) => [
    node('Unsqueeze', [maskName, 'axis2'], [`${out}_m3`]),
    node('Mul', ['onehot', `${out}_m3`], [`${out}_tok`]),
    node('ReduceSum', [`${out}_tok`, 'axis1'], [out], { keepdims: 0 }), // [B, V] type counts
  ];
  const sum = (input: string, out: string) => node('ReduceSum', [input, 'axis1'], [out], { keepdims: 1 }); // [B, 1]
  return encodeModel(
    {
      name: 'podium_test_nli_tiny',
      input: [
        valueInfo('input_ids', DataType.INT64, ['batch', 'seq']),
        valueInfo('attention_mask', DataType.INT64, ['batch', 'seq']),
        valueInfo('token_type_ids', DataType.INT64, ['batch', 'seq']),
      ],
      output: [valueInfo('logits', DataType.FLOAT, ['batch', 3])],
      initializer: [
        int64Tensor('depth', [1], [V]),
        floatTensor('onehot_values', [2], f32([0, 1])),
        axes('axis1', 1),
        axes('axis2', 2),
        floatTensor('one', [], f32([1])),
        floatTensor('content', [V], f32(vocab.map((v) => v.content))),
        floatTensor('negation', [V], f32(vocab.map((v) => v.negation))),
        floatTensor('numeric', [V], f32(vocab.map((v) => v.number))),
        floatTensor('W', [3, 3], f32(TEST_MODEL_WEIGHTS.flat())),
        floatTensor('b', [3], f32(TEST_MODEL_BIAS)),
      ],
      node: [
        node('OneHot', ['input_ids', 'depth', 'onehot_values'], ['onehot'], { axis: -1 }), // [B, S, V]
        node('Cast', ['attention_mask'], ['mask_f'], { to: DataType.FLOAT }),
        node('Cast', ['token_type_ids'], ['type_f'], { to: DataType.FLOAT }),
        node('Mul', ['mask_f', 'type_f'], ['hyp_mask']),
        node('Sub', ['mask_f', 'hyp_mask'], ['prem_mask']),
        ...bag('prem_mask', 'P'),
        ...bag('hyp_mask', 'H'),
        node('Min', ['P', 'one'], ['P_present']),
        node('Min', ['H', 'one'], ['H_present']),
        // r: share of the hypothesis' content types found in the premise
        node('Mul', ['H_present', 'content'], ['H_content']),
        sum('H_content', 'hyp_types'),
        node('Mul', ['H_content', 'P_present'], ['shared']),
        sum('shared', 'overlap'),
        node('Max', ['hyp_types', 'one'], ['denominator']),
        node('Div', ['overlap', 'denominator'], ['r']),
        // neg: exactly one side negated
        node('Mul', ['P', 'negation'], ['P_neg_tok']),
        sum('P_neg_tok', 'P_neg_count'),
        node('Min', ['P_neg_count', 'one'], ['P_neg']),
        node('Mul', ['H', 'negation'], ['H_neg_tok']),
        sum('H_neg_tok', 'H_neg_count'),
        node('Min', ['H_neg_count', 'one'], ['H_neg']),
        node('Sub', ['P_neg', 'H_neg'], ['neg_diff']),
        node('Abs', ['neg_diff'], ['neg']),
        // num: a number in the hypothesis that the premise lacks
        node('Sub', ['one', 'P_present'], ['P_absent']),
        node('Mul', ['H_present', 'numeric'], ['H_num']),
        node('Mul', ['H_num', 'P_absent'], ['H_num_new']),
        sum('H_num_new', 'num_new_count'),
        node('Min', ['num_new_count', 'one'], ['num']),
        node('Concat', ['r', 'neg', 'num'], ['features'], { axis: 1 }), // [B, 3]
        node('MatMul', ['features', 'W'], ['scores']),
        node('Add', ['scores', 'b'], ['logits']),
      ],
    },
    'podium-make-test-model',
  );
}

/** The three files of the test model, as bytes, keyed by file name. */
export function generateTestModel(): Record<string, Uint8Array> {
  const vocab = testModelVocab();
  const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v, null, 2) + '\n');
  return {
    'model.onnx': onnxModel(vocab),
    'tokenizer.json': json(tokenizerJson(vocab)),
    'config.json': json(configJson(vocab.length)),
  };
}

/** Writes the test model into `dir` and returns each file's sha256 (hex). */
export function writeTestModel(dir: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const sums: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(generateTestModel())) {
    writeFileSync(join(dir, name), bytes);
    sums[name] = createHash('sha256').update(bytes).digest('hex');
  }
  return sums;
}

if (require.main === module) {
  const out = resolve(process.argv[2] ?? join(__dirname, 'test-nli-tiny'));
  process.stdout.write(JSON.stringify({ dir: out, sha256: writeTestModel(out) }, null, 2) + '\n');
}
