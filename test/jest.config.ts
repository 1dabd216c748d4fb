const preset = require('../jest.preset.js');
module.exports = {
  ...preset,
  displayName: 'e2e',
  rootDir: __dirname,
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/browser/'],
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
};
