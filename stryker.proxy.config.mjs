// Mutation testing of the inference proxy's decisions (npm run mutation:proxy): hold or shed, the
// Retry-After, what a request is (model work or a read) and so what counts as activity, how the idle
// tick reads that activity, the model list kept for a cold pod, readiness, the held requests and the
// activity the proxy publishes. Not part of CI. Score and survivors: docs/testing.md, "Mutation
// testing: inference proxy".
import { ignoredByEveryRun, jestRunner, strykerBase } from './stryker.base.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...strykerBase,
  ...jestRunner('stryker.proxy.jest.config.js'),
  mutate: [
    'libs/policies/src/proxy/**/*.ts',
    '!libs/policies/src/proxy/**/*.spec.ts',
    '!libs/policies/src/proxy/index.ts',
    'libs/policies/src/idle/proxy-activity.ts',
    'apps/inference-proxy/src/cold/held-requests.ts',
    'apps/inference-proxy/src/cold/pod-readiness.ts',
    'apps/inference-proxy/src/forward/activity-publisher.ts',
  ],
  // The proxy and the libraries it compiles against, not the whole repo.
  tsconfigFile: 'tsconfig.stryker.proxy.json',
  htmlReporter: { fileName: 'reports/mutation-proxy/index.html' },
  jsonReporter: { fileName: 'reports/mutation-proxy/mutation.json' },
  incrementalFile: 'mutation/stryker-incremental-proxy.json',
  ignorePatterns: [
    ...ignoredByEveryRun,
    'test',
    'bench',
    'apps/gateway',
    'apps/idle-monitor',
    'apps/waker',
    'apps/runpod-sim',
    'apps/cli',
  ],
};
