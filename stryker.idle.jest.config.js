// The jest config the idle tick's Stryker run uses: the idle monitor's unit specs only.
module.exports = {
  ...require('./stryker.jest.base.js'),
  roots: ['<rootDir>/apps/idle-monitor'],
  testMatch: ['<rootDir>/apps/idle-monitor/**/*.spec.ts'],
};
