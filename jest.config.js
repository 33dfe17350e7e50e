// Two projects: fast unit specs beside the code, and end-to-end specs under
// test/ that drive the built apps (dist/) as real processes against Redis.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' });
// A .lua import is its text (the Redis scripts beside their stores); webpack does the same in the bundle.
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  '^.+\\.lua$': '<rootDir>/scripts/jest-lua-transform.js',
};

module.exports = {
  // Read from the global config only (a project's own testTimeout did not reach jest-circus: a unit spec
  // timed out at the 5 s default). Many unit specs talk to a real Redis or a local server, and on a
  // loaded 2-core machine 5 s has timed out a passing spec. The e2e setup sets its own 180 s.
  testTimeout: 30000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/packages'],
      testMatch: ['**/*.spec.ts'],
      moduleFileExtensions: ['ts', 'js', 'json'],
      transform,
      moduleNameMapper,
    },
    {
      displayName: 'e2e',
      testEnvironment: '<rootDir>/test/support/e2e-environment.js',
      rootDir: __dirname,
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      moduleFileExtensions: ['ts', 'js', 'json'],
      transform,
      moduleNameMapper,
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-setup.ts'],
    },
  ],
};
