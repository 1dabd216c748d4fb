/* eslint-disable */
const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'nli', rootDir: __dirname };
