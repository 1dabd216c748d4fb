const preset = require('../../jest.preset.js');
module.exports = {
  ...preset,
  displayName: 'web',
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  // Observable Plot is ESM-only; component tests check data and logic, the browser test the charts.
  // wouter ships ES modules only; SWC compiles it to CommonJS like our own files.
  transformIgnorePatterns: ['/node_modules/(?!(wouter|regexparam)/)'],
  // d3's packages are ES modules too; their UMD builds load in Jest as they are (the heatmap's label colours).
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    '^@observablehq/plot$': '<rootDir>/src/test/plot-stub.ts',
    '^d3-(color|interpolate|scale-chromatic)$': '<rootDir>/../../node_modules/d3-$1/dist/d3-$1.min.js',
  },
};
