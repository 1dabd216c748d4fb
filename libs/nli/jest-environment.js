// Jest's node environment gives each test file its own typed-array constructors, while
// onnxruntime-node's native binding returns the host's: its `instanceof Float32Array` checks
// then fail ("A float32 tensor's data must be type of function Float32Array()"). Sharing the
// host's constructors fixes that. Any project whose tests run onnxruntime-node needs this.
const { TestEnvironment } = require('jest-environment-node');

const TYPED_ARRAYS = [
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
];

class OnnxRuntimeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

module.exports = OnnxRuntimeEnvironment;
