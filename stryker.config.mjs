// Mutation testing of libs/policies (npm run mutation). Not part of CI: a full
// run takes tens of minutes. Scores and surviving mutants: docs/testing.md.
import { ignoredByEveryRun, jestRunner, strykerBase } from './stryker.base.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...strykerBase,
  ...jestRunner('stryker.jest.config.js'),
  mutate: ['libs/policies/src/**/*.ts', '!libs/policies/src/**/*.spec.ts', '!libs/policies/src/**/index.ts'],
  // Only the mutated library: the whole-repo tsconfig would fail the run on any type error elsewhere.
  tsconfigFile: 'tsconfig.stryker.json',
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation-policies/mutation.json' },
  // Committed: --incremental re-tests only mutants whose code or covering specs changed since.
  incrementalFile: 'mutation/stryker-incremental-policies.json',
  ignorePatterns: [...ignoredByEveryRun, 'apps', 'test'],
};
