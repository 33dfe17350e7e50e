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
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      // Many unit specs talk to a real Redis or a local server: on a loaded
      // 2-core machine the 5 s default has timed out a passing spec.
      testTimeout: 30000,
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
      testTimeout: 180000,
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-setup.ts'],
    },
  ],
};
