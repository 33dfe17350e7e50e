// Mutation testing of the wake and the stop service (npm run mutation:wake): every step of the wake
// run, the run itself, the job runner and the attempt it records, and the one stop path with the one
// billable record. Not part of CI. Scores and surviving mutants: docs/testing.md, "Mutation testing:
// wake and stop".
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  mutate: [
    'apps/waker/src/wake/**/*.ts',
    '!apps/waker/src/wake/**/*.spec.ts',
    '!apps/waker/src/wake/testing/**',
    'libs/platform/src/stop/stop-service.ts',
    'libs/platform/src/records/record-billable.ts',
  ],
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'stryker.wake.jest.config.js', enableFindRelatedTests: true },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  // The waker and the libraries it compiles against, not the whole repo (see tsconfig.stryker.json's note in docs/testing.md).
  tsconfigFile: 'tsconfig.stryker.wake.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: false },
  reporters: ['html', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/wake.html' },
  concurrency: 2,
  thresholds: { high: 95, low: 90, break: 85 },
  tempDirName: '.stryker-tmp',
  ignorePatterns: [
    'dist',
    'node_modules',
    'test-logs',
    'reports',
    'test',
    'bench',
    'apps/gateway',
    'apps/idle-monitor',
    'apps/runpod-sim',
  ],
};
