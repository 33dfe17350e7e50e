#!/usr/bin/env bash
# The test command: Redis up, apps built (end-to-end specs run dist/ as real
# processes), then every jest project, then a grep of every app log the tests
# produced for the fake RunPod key. Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-redis.sh
bash scripts/ensure-chromium.sh
npm run build --silent
rm -rf test-logs && mkdir -p test-logs
set +e
npx jest --ci "$@" 2>&1 | tee test-logs/jest-output.log
status=${PIPESTATUS[0]}
set -e
key=$(node -e "process.stdout.write(require('fs').readFileSync('test/support/test-env.ts','utf8').match(/TEST_API_KEY = '([^']+)'/)[1])")
if grep -rl --fixed-strings "$key" test-logs; then
  echo "FAIL: the RunPod API key appears in the test logs above" >&2
  exit 1
fi
echo "key-leak check: the RunPod API key appears in no test log ($(ls test-logs | wc -l) files)"
exit "$status"
