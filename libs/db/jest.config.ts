const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'db', rootDir: __dirname };
