const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'domain', rootDir: __dirname };
