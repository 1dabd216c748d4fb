/**
 * Small helpers to write ONNX graphs from TypeScript with `onnx-proto` (no Python on this
 * machine). Used by `make-test-model.ts` and by `bench/nli.bench.ts`. Recipe adapted from the
 * stack notes' `onnx/make-model.js` (Gather → … → MatMul → Add, opset 17).
 */
import { mulberry32 } from '@podium/ranking';
import { onnx } from 'onnx-proto';

const T = onnx.TensorProto.DataType;
const A = onnx.AttributeProto.AttributeType;

/** ONNX element types used here. */
export const DataType = { FLOAT: T.FLOAT, INT64: T.INT64 } as const;

/** A float32 initializer; data stored little-endian in `rawData`. */
export function floatTensor(name: string, dims: number[], data: Float32Array): onnx.ITensorProto {
  if (data.length !== dims.reduce((a, b) => a * b, 1)) throw new Error(`tensor ${name}: size does not match ${dims.join(',')}`);
  return onnx.TensorProto.create({
    name,
    dims,
    dataType: T.FLOAT,
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });
}

/** An int64 initializer. */
export function int64Tensor(name: string, dims: number[], data: number[]): onnx.ITensorProto {
  return onnx.TensorProto.create({ name, dims, dataType: T.INT64, int64Data: data });
}

/** A graph input/output declaration; string dims are symbolic (`batch`, `seq`). */
export function valueInfo(name: string, elemType: number, dims: (string | number)[]): onnx.IValueInfoProto {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  });
}

/** Attribute values accepted by {@link node}. */
export type AttrValue = number | number[] | { float: number } | { tensor: onnx.ITensorProto };

function attribute(name: string, value: AttrValue): onnx.IAttributeProto {
  if (Array.isArray(value)) return onnx.AttributeProto.create({ name, type: A.INTS, ints: value });
  if (typeof value === 'number') return onnx.AttributeProto.create({ name, type: A.INT, i: value });
  if ('float' in value) return onnx.AttributeProto.create({ name, type: A.FLOAT, f: value.float });
  return onnx.AttributeProto.create({ name, type: A.TENSOR, t: value.tensor });
}

/** One operator node; its name is derived from its first output, so names stay unique. */
export function node(
  opType: string,
  inputs: string[],
  outputs: string[],
  attrs: Record<string, AttrValue> = {},
): onnx.INodeProto {
  return onnx.NodeProto.create({
    opType,
    input: inputs,
    output: outputs,
    name: `${outputs[0]}_${opType}`,
    attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
  });
}

/** Serialises a model (IR 8, default domain at `opset`); the bytes depend only on the inputs. */
export function encodeModel(graph: onnx.IGraphProto, producerName: string, opset = 17): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName,
    opsetImport: [{ domain: '', version: opset }],
    graph: onnx.GraphProto.create(graph),
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Deterministic pseudo-random floats (mulberry32 of `@podium/ranking`), uniform in [-scale, scale).
 * Seeded so generated benchmark models are identical run to run.
 */
export function seededUniform(n: number, seed: number, scale: number): Float32Array {
  const out = new Float32Array(n);
  const rng = mulberry32(seed);
  for (let i = 0; i < n; i++) out[i] = (2 * rng.next() - 1) * scale;
  return out;
}
