// What every Stryker jest config shares: the unit project's ts-jest transform and path aliases.
// Each config (stryker.jest.config.js, stryker.idle/.wake/.proxy.jest.config.js) adds its specs.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
    '^.+\\.lua$': '<rootDir>/scripts/jest-lua-transform.js',
  },
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
};
