const preset = require('../../jest.preset.js');
module.exports = {
  ...preset,
  displayName: 'web',
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  // Observable Plot is ESM-only; component tests check data and logic, the browser test the charts.
  // wouter ships ES modules only; SWC compiles it to CommonJS like our own files.
  transformIgnorePatterns: ['/node_modules/(?!(wouter|regexparam)/)'],
  moduleNameMapper: { ...preset.moduleNameMapper, '^@observablehq/plot$': '<rootDir>/src/test/plot-stub.ts' },
};
