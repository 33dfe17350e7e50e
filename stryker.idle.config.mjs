// Mutation testing of the idle tick (npm run mutation:idle): the code under
// apps/idle-monitor/src/idle, against its unit specs (the real IdleStateStore,
// StopService and ActionLog on a real Redis, FakeRunPod for RunPod). Not part
// of CI. Score and surviving mutants: docs/testing.md, "Mutation testing: idle tick".
import { ignoredByEveryRun, jestRunner, strykerBase } from './stryker.base.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...strykerBase,
  ...jestRunner('stryker.idle.jest.config.js'),
  mutate: [
    'apps/idle-monitor/src/idle/**/*.ts',
    '!apps/idle-monitor/src/idle/**/*.spec.ts',
    '!apps/idle-monitor/src/idle/testing/**',
  ],
  tsconfigFile: 'tsconfig.stryker.idle.json',
  htmlReporter: { fileName: 'reports/mutation-idle/index.html' },
  jsonReporter: { fileName: 'reports/mutation-idle/mutation.json' },
  // Committed: --incremental re-tests only mutants whose code or covering specs changed since.
  incrementalFile: 'mutation/stryker-incremental-idle.json',
  ignorePatterns: [...ignoredByEveryRun, 'test', 'apps/gateway', 'apps/waker', 'apps/runpod-sim'],
};
