const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'metrics', rootDir: __dirname };
