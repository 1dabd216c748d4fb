/**
 * Writes an ONNX cross-encoder with the shape of BERT-base (12 layers, hidden 768, 12 heads,
 * FFN 3072, vocabulary 30,522, 512 positions) and seeded random weights: for speed
 * measurements only, its outputs mean nothing. Real self-attention and FFN layers from
 * MatMul / Softmax / LayerNormalization / Erf (GELU), opset 17. About 440 MB: generated into
 * tmp/ by bench/nli.bench.ts and bench/embeddings.bench.ts, never committed. With
 * `outputs: 'hidden-states'` it is a text encoder (every hidden state an output); the small
 * shape of models/make-test-encoder.ts is the committed test encoder.
 */
import { writeFileSync } from 'node:fs';
import type { onnx } from 'onnx-proto';
import { DataType, encodeModel, floatTensor, int64Tensor, node, seededUniform, valueInfo } from './onnx-graph';

/** Shape of the generated encoder. */
export interface BertShape {
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
  vocab: number;
  positions: number;
  labels: number;
  /** Half-width of the uniform initial weights (default 0.02, BERT's initialiser range). */
  weightScale?: number;
}

/**
 * What the graph outputs: `logits` (a 3-way classifier on [CLS], the NLI bench) or
 * `hidden-states`: one output `hidden_states.<i>` [batch, seq, hidden] per hidden state, 0 the
 * embedding output and i the output of layer i, as Hugging Face numbers `hidden_states` (the
 * text encoders of @podium/embeddings).
 */
export type BertOutputs = 'logits' | 'hidden-states';

/** BERT-base. */
export const BERT_BASE: BertShape = { layers: 12, hidden: 768, heads: 12, intermediate: 3072, vocab: 30522, positions: 512, labels: 3 };

/** Serialises a BERT-shaped classifier with random weights (seeded: identical bytes per shape and seed). */
export function bertShapedModel(shape: BertShape = BERT_BASE, seed = 1, outputs: BertOutputs = 'logits'): Uint8Array {
  const { layers, hidden: H, heads, intermediate: F, vocab: V, positions: P, labels: C } = shape;
  const dh = H / heads;
  const init: onnx.ITensorProto[] = [];
  const nodes: onnx.INodeProto[] = [];
  let s = seed;
  const weight = (name: string, dims: number[], scale = shape.weightScale ?? 0.02) => {
    init.push(floatTensor(name, dims, seededUniform(dims.reduce((a, b) => a * b, 1), s++, scale)));
    return name;
  };
  const constant = (name: string, dims: number[], value: number) => {
    init.push(floatTensor(name, dims, new Float32Array(dims.reduce((a, b) => a * b, 1)).fill(value)));
    return name;
  };
  const layerNorm = (x: string, out: string) => {
    const scale = constant(`${out}_gamma`, [H], 1);
    const bias = constant(`${out}_beta`, [H], 0);
    nodes.push(node('LayerNormalization', [x, scale, bias], [out], { axis: -1, epsilon: { float: 1e-12 } }));
    return out;
  };
  const dense = (x: string, out: string, inDim: number, outDim: number) => {
    nodes.push(node('MatMul', [x, weight(`${out}_W`, [inDim, outDim])], [`${out}_mm`]));
    nodes.push(node('Add', [`${out}_mm`, weight(`${out}_b`, [outDim])], [out]));
    return out;
  };
  init.push(int64Tensor('heads_shape', [4], [0, 0, heads, dh]));
  init.push(int64Tensor('hidden_shape', [3], [0, 0, H]));
  init.push(int64Tensor('one_i', [], [1]));
  init.push(int64Tensor('zero_i', [], [0]));
  init.push(int64Tensor('mask_axes', [2], [1, 2]));
  constant('one_f', [], 1);
  constant('mask_neg', [], -10000);
  constant('att_scale', [], 1 / Math.sqrt(dh));
  constant('half', [], 0.5);
  constant('inv_sqrt2', [], Math.SQRT1_2);

  // Embeddings: word + position + token type, then LayerNorm.
  nodes.push(node('Gather', [weight('word_emb', [V, H]), 'input_ids'], ['e_word'], { axis: 0 }));
  nodes.push(node('Shape', ['input_ids'], ['ids_shape']));
  nodes.push(node('Gather', ['ids_shape', 'one_i'], ['seq_len'], { axis: 0 }));
  nodes.push(node('Range', ['zero_i', 'seq_len', 'one_i'], ['positions']));
  nodes.push(node('Gather', [weight('pos_emb', [P, H]), 'positions'], ['e_pos'], { axis: 0 }));
  nodes.push(node('Gather', [weight('type_emb', [2, H]), 'token_type_ids'], ['e_type'], { axis: 0 }));
  nodes.push(node('Add', ['e_word', 'e_pos'], ['e_wp']));
  nodes.push(node('Add', ['e_wp', 'e_type'], ['e_sum']));
  let x = layerNorm('e_sum', 'emb_ln');
  const states = [x];

  // Additive attention mask [B, 1, 1, S]: 0 for tokens, −10000 for padding.
  nodes.push(node('Cast', ['attention_mask'], ['mask_f'], { to: DataType.FLOAT }));
  nodes.push(node('Sub', ['one_f', 'mask_f'], ['mask_inv']));
  nodes.push(node('Mul', ['mask_inv', 'mask_neg'], ['mask_add']));
  nodes.push(node('Unsqueeze', ['mask_add', 'mask_axes'], ['mask_bias']));

  for (let l = 0; l < layers; l++) {
    const p = `l${l}`;
    const split = (t: string, perm: number[], out: string) => {
      nodes.push(node('Reshape', [t, 'heads_shape'], [`${out}_r`]));
      nodes.push(node('Transpose', [`${out}_r`], [out], { perm }));
      return out;
    };
    const q = split(dense(x, `${p}_q`, H, H), [0, 2, 1, 3], `${p}_qh`);
    const k = split(dense(x, `${p}_k`, H, H), [0, 2, 3, 1], `${p}_kh`);
    const v = split(dense(x, `${p}_v`, H, H), [0, 2, 1, 3], `${p}_vh`);
    nodes.push(node('MatMul', [q, k], [`${p}_qk`]));
    nodes.push(node('Mul', [`${p}_qk`, 'att_scale'], [`${p}_qk_s`]));
    nodes.push(node('Add', [`${p}_qk_s`, 'mask_bias'], [`${p}_qk_m`]));
    nodes.push(node('Softmax', [`${p}_qk_m`], [`${p}_att`], { axis: -1 }));
    nodes.push(node('MatMul', [`${p}_att`, v], [`${p}_ctx_h`]));
    nodes.push(node('Transpose', [`${p}_ctx_h`], [`${p}_ctx_t`], { perm: [0, 2, 1, 3] }));
    nodes.push(node('Reshape', [`${p}_ctx_t`, 'hidden_shape'], [`${p}_ctx`]));
    dense(`${p}_ctx`, `${p}_ao`, H, H);
    nodes.push(node('Add', [`${p}_ao`, x], [`${p}_res1`]));
    x = layerNorm(`${p}_res1`, `${p}_ln1`);
    // FFN with exact GELU: 0.5·h·(1 + erf(h/√2))
    const h = dense(x, `${p}_ff1`, H, F);
    nodes.push(node('Mul', [h, 'inv_sqrt2'], [`${p}_g1`]));
    nodes.push(node('Erf', [`${p}_g1`], [`${p}_g2`]));
    nodes.push(node('Add', [`${p}_g2`, 'one_f'], [`${p}_g3`]));
    nodes.push(node('Mul', [h, `${p}_g3`], [`${p}_g4`]));
    nodes.push(node('Mul', [`${p}_g4`, 'half'], [`${p}_gelu`]));
    dense(`${p}_gelu`, `${p}_ff2`, F, H);
    nodes.push(node('Add', [`${p}_ff2`, x], [`${p}_res2`]));
    x = layerNorm(`${p}_res2`, `${p}_ln2`);
    states.push(x);
  }
  const inputs = [
    valueInfo('input_ids', DataType.INT64, ['batch', 'seq']),
    valueInfo('attention_mask', DataType.INT64, ['batch', 'seq']),
    valueInfo('token_type_ids', DataType.INT64, ['batch', 'seq']),
  ];
  if (outputs === 'hidden-states') {
    states.forEach((t, i) => nodes.push(node('Identity', [t], [`hidden_states.${i}`])));
    return encodeModel(
      {
        name: 'bert_shaped_encoder',
        input: inputs,
        output: states.map((_, i) => valueInfo(`hidden_states.${i}`, DataType.FLOAT, ['batch', 'seq', H])),
        initializer: init,
        node: nodes,
      },
      'podium-make-bert-shaped-model',
    );
  }

  // Pooler on [CLS] and the 3-way classifier.
  nodes.push(node('Gather', [x, 'zero_i'], ['cls'], { axis: 1 }));
  dense('cls', 'pool', H, H);
  nodes.push(node('Tanh', ['pool'], ['pooled']));
  dense('pooled', 'logits', H, C);

  return encodeModel(
    {
      name: 'bert_shaped_random',
      input: inputs,
      output: [valueInfo('logits', DataType.FLOAT, ['batch', C])],
      initializer: init,
      node: nodes,
    },
    'podium-make-bert-shaped-model',
  );
}

if (require.main === module) {
  const out = process.argv[2] ?? 'tmp/bert-shaped.onnx';
  writeFileSync(out, bertShapedModel());
  process.stdout.write(`wrote ${out}\n`);
}
