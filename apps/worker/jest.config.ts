const preset = require('../../jest.preset.js');
module.exports = {
  ...preset,
  displayName: 'worker',
  rootDir: __dirname,
  // The worker loads NLI models in-process; onnxruntime-node needs libs/nli's test environment.
  testEnvironment: require('node:path').join(__dirname, '..', '..', 'libs', 'nli', 'jest-environment.js'),
};
