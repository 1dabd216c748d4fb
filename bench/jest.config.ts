// Unit specs of the benchmarks' pure helpers (bench/platform/*.spec.ts); the benchmarks themselves are not tests.
module.exports = { ...require('../jest.preset.js'), displayName: 'bench', rootDir: __dirname };
