// The jest config Stryker runs for the wake and stop mutants: the waker's unit specs (all on the
// scripted FakeRunPod; the runner's and the stop service's on a real Redis under their own prefix) and
// the stop service's spec, with the unit project's transform and path aliases. The real-worker spec
// (wake.processor.spec.ts) is left out: it boots Nest and BullMQ per test and mutates nothing of its own.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/apps/waker', '<rootDir>/libs/platform/src/stop'],
  testMatch: ['<rootDir>/apps/waker/src/wake/**/*.spec.ts', '<rootDir>/libs/platform/src/stop/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
};
