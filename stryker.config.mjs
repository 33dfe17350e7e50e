// Mutation testing of libs/policies (npm run mutation). Not part of CI: a full
// run takes tens of minutes. Scores and surviving mutants: docs/testing.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  mutate: ['libs/policies/src/**/*.ts', '!libs/policies/src/**/*.spec.ts', '!libs/policies/src/**/index.ts'],
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'stryker.jest.config.js', enableFindRelatedTests: true },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  // Only the mutated library: the whole-repo tsconfig would fail the run on any type error elsewhere.
  tsconfigFile: 'tsconfig.stryker.json',
  // Accuracy: the fast mode may report a type-valid mutant as a compile error, hiding a survivor.
  typescriptChecker: { prioritizePerformanceOverAccuracy: false },
  reporters: ['html', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  concurrency: 2,
  thresholds: { high: 95, low: 90, break: 90 },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['dist', 'node_modules', 'test-logs', 'reports', 'apps', 'test'],
};
