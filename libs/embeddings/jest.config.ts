const preset = require('../../jest.preset.js');
module.exports = {
  ...preset,
  displayName: 'embeddings',
  rootDir: __dirname,
  // onnxruntime-node returns host-realm typed arrays; see libs/nli/jest-environment.js.
  testEnvironment: require('node:path').join(__dirname, '..', 'nli', 'jest-environment.js'),
};
