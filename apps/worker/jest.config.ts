/* eslint-disable */
const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'worker', rootDir: __dirname };
