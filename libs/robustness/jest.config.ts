const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'robustness', rootDir: __dirname };
