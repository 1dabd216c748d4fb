const preset = require('../../jest.preset.js');
module.exports = {
  ...preset,
  displayName: 'nli',
  rootDir: __dirname,
  // onnxruntime-node returns host-realm typed arrays; see jest-environment.js.
  testEnvironment: require('node:path').join(__dirname, 'jest-environment.js'),
};
