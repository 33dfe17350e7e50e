// The chaos suite (`npm run chaos`): the built apps as real processes under
// faults (kill -9, Redis restarts, control-plane weather, load). Kept out of
// the default projects so `npm test` stays fast; .ci/run runs it separately.
const base = require('./jest.config.js');
const e2e = base.projects.find((project) => project.displayName === 'e2e');

module.exports = {
  ...e2e,
  displayName: 'chaos',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.chaos-spec.ts'],
  testTimeout: 300000,
};
