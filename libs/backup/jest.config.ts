const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'backup', rootDir: __dirname };
