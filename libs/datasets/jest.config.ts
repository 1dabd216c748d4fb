const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'datasets', rootDir: __dirname };
