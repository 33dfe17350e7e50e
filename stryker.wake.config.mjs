// Mutation testing of the wake and the stop service (npm run mutation:wake): every step of the wake
// run, the run itself, the job runner and the attempt it records, and the one stop path with the one
// billable record. Not part of CI. Scores and surviving mutants: docs/testing.md, "Mutation testing:
// wake and stop".
import { ignoredByEveryRun, jestRunner, strykerBase } from './stryker.base.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...strykerBase,
  ...jestRunner('stryker.wake.jest.config.js'),
  mutate: [
    'apps/waker/src/wake/**/*.ts',
    '!apps/waker/src/wake/**/*.spec.ts',
    '!apps/waker/src/wake/testing/**',
    'libs/platform/src/stop/stop-service.ts',
    // The stop service's record-and-announce step, split out of it.
    'libs/platform/src/stop/record-stop-call.ts',
    'libs/platform/src/records/record-billable.ts',
  ],
  // The waker and the libraries it compiles against, not the whole repo (see tsconfig.stryker.json's note in docs/testing.md).
  tsconfigFile: 'tsconfig.stryker.wake.json',
  htmlReporter: { fileName: 'reports/mutation/wake.html' },
  jsonReporter: { fileName: 'reports/mutation-wake/mutation.json' },
  // Committed: --incremental re-tests only mutants whose code or covering specs changed since.
  incrementalFile: 'mutation/stryker-incremental-wake.json',
  ignorePatterns: [
    ...ignoredByEveryRun,
    'test',
    'bench',
    'apps/gateway',
    'apps/idle-monitor',
    'apps/runpod-sim',
  ],
};
