// The jest config Stryker runs: only the policies library's unit specs. what-if-targets.spec.ts replays
// four day-long traces (about 40 s) and would run for every mutant it covers; the replay's own specs and
// usage-trace.spec.ts cover the same code in milliseconds. It still runs in npm test.
module.exports = {
  ...require('./stryker.jest.base.js'),
  roots: ['<rootDir>/libs/policies'],
  testMatch: ['<rootDir>/libs/policies/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', 'what-if-targets\\.spec\\.ts$'],
};
