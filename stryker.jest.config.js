// The jest config Stryker runs: only the policies library's unit specs.
module.exports = {
  ...require('./stryker.jest.base.js'),
  roots: ['<rootDir>/libs/policies'],
  testMatch: ['<rootDir>/libs/policies/**/*.spec.ts'],
};
