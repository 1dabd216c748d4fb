const browserPreset = require('../../jest.preset.js');
// The web app in headless Chromium against a real api, worker and PostgreSQL (issue #6).
module.exports = { ...browserPreset, displayName: 'browser', rootDir: __dirname };
// Timeouts are set per test: a project's testTimeout is ignored under the root config.
