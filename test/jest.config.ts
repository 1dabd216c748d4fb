/* eslint-disable */
const preset = require('../jest.preset.js');
module.exports = { ...preset, displayName: 'e2e', rootDir: __dirname, testTimeout: 180000, testPathIgnorePatterns: ['/node_modules/', '<rootDir>/browser/'] };
