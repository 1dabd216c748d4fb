// Root Jest config: every project's specs plus the cross-app end-to-end tests.
module.exports = {
  projects: [
    '<rootDir>/libs/*/jest.config.ts',
    '<rootDir>/apps/{api,worker,cli}/jest.config.ts',
    '<rootDir>/apps/web/jest.config.ts',
    '<rootDir>/test/jest.config.ts',
    '<rootDir>/bench/jest.config.ts',
    '<rootDir>/test/browser/jest.config.ts',
  ],
};
