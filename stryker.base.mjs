// What every mutation run shares (stryker.config.mjs, stryker.idle/.wake/.proxy.config.mjs); each
// config names only its files, specs, tsconfig and reports. Not part of CI.

/** The jest runner on a config of its own, each mutant run against only the specs that cover it. */
export function jestRunner(configFile) {
  return {
    testRunner: 'jest',
    jest: { projectType: 'custom', configFile, enableFindRelatedTests: true },
    coverageAnalysis: 'perTest',
  };
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export const strykerBase = {
  packageManager: 'npm',
  checkers: ['typescript'],
  // Grouped checking (about 10x faster) so a whole run fits a session on two cores. Groups hold mutants of
  // unrelated files and an error is pinned on one mutant or re-checked singly, so no valid mutant is filed as a
  // compile error; a missed error only sends an invalid mutant to the (transpile-only) tests.
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  reporters: ['html', 'clear-text', 'progress', 'json'],
  concurrency: 2,
  // The first run of every spec with coverage took over Stryker's default 5 minutes on the loaded cores.
  dryRunTimeoutMinutes: 30,
  thresholds: { high: 95, low: 90, break: 90 },
  tempDirName: '.stryker-tmp',
};

// Another run's sandboxes (runs of two configurations may share the tree) are never copied; each
// config adds the apps it does not compile.
export const ignoredByEveryRun = ['.stryker-tmp*', 'dist', 'node_modules', 'test-logs', 'reports'];
