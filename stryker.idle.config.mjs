// Mutation testing of the idle tick (npm run mutation:idle): the code under
// apps/idle-monitor/src/idle, against its unit specs (the real IdleStateStore,
// StopService and ActionLog on a real Redis, FakeRunPod for RunPod). Not part
// of CI. Score and surviving mutants: docs/testing.md, "Mutation testing: idle tick".
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  mutate: [
    'apps/idle-monitor/src/idle/**/*.ts',
    '!apps/idle-monitor/src/idle/**/*.spec.ts',
    '!apps/idle-monitor/src/idle/testing/**',
  ],
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'stryker.idle.jest.config.js', enableFindRelatedTests: true },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.stryker.idle.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: false },
  reporters: ['html', 'clear-text', 'progress', 'json'],
  htmlReporter: { fileName: 'reports/mutation-idle/index.html' },
  jsonReporter: { fileName: 'reports/mutation-idle/mutation.json' },
  concurrency: 2,
  thresholds: { high: 90, low: 80, break: 80 },
  tempDirName: '.stryker-tmp',
  ignorePatterns: [
    'dist',
    'node_modules',
    'test-logs',
    'reports',
    'test',
    'apps/gateway',
    'apps/waker',
    'apps/runpod-sim',
  ],
};
