const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'ranking', rootDir: __dirname };
