const preset = require('../../jest.preset.js');
module.exports = { ...preset, displayName: 'leaderboard', rootDir: __dirname };
