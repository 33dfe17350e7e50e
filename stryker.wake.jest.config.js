// The jest config Stryker runs for the wake and stop mutants: the waker's unit specs (all on the
// scripted FakeRunPod; the runner's and the stop service's on a real Redis under their own prefix) and
// the stop service's spec. The real-worker spec (wake.processor.spec.ts) is left out: it boots Nest
// and BullMQ per test and mutates nothing of its own.
module.exports = {
  ...require('./stryker.jest.base.js'),
  // All of libs/platform/src: jest's related-test search (Stryker's findRelatedTests) only follows imports
  // through files under a root, and the stop specs build the service through src/testing/new-stop-service.ts.
  roots: ['<rootDir>/apps/waker', '<rootDir>/libs/platform/src'],
  testMatch: ['<rootDir>/apps/waker/src/wake/**/*.spec.ts', '<rootDir>/libs/platform/src/stop/*.spec.ts'],
};
