// Two projects: fast unit specs beside the code, and end-to-end specs under
// test/ that drive the built apps (dist/) as real processes against Redis.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' });
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] };

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      // Many unit specs talk to a real Redis or a local server: on a loaded
      // 2-core machine the 5 s default has timed out a passing spec.
      testTimeout: 30000,
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs'],
      testMatch: ['**/*.spec.ts'],
      moduleFileExtensions: ['ts', 'js', 'json'],
      transform,
      moduleNameMapper,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
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
