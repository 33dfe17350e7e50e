// The jest config Stryker runs for the proxy's decisions: the proxy policies' specs, the proxy
// activity policy's spec and the specs of the proxy's cold path and activity (readiness on a real
// Redis under its own prefix). The handler's and the controller's specs are left out: they boot Nest
// and real HTTP per test and mutate nothing of their own, so each decision is scored by its own specs.
module.exports = {
  ...require('./stryker.jest.base.js'),
  roots: ['<rootDir>/apps/inference-proxy', '<rootDir>/libs/policies/src'],
  testMatch: [
    '<rootDir>/apps/inference-proxy/src/cold/*.spec.ts',
    '<rootDir>/apps/inference-proxy/src/forward/*.spec.ts',
    '<rootDir>/libs/policies/src/proxy/*.spec.ts',
    '<rootDir>/libs/policies/src/idle/proxy-activity.spec.ts',
  ],
};
