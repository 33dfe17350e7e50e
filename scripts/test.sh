#!/usr/bin/env bash
# The test command: Redis up, apps built (end-to-end specs run dist/ as real
# processes), then every jest project, then a search of every app log, jest's
# output and recorded HTTP answer for the test key and tokens in any encoding.
# Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-redis.sh
bash scripts/ensure-chromium.sh
# promtool and prometheus for the alert-rule tests and the real-Prometheus spec (test/deploy).
bash scripts/ensure-prometheus.sh
npm run build --silent
rm -rf test-logs && mkdir -p test-logs
set +e
# Three jest workers on two cores: most end-to-end time is spent waiting on
# apps and timers, not on CPU (docs/testing.md has the timings). JEST_WORKERS overrides.
npx jest --ci --maxWorkers="${JEST_WORKERS:-3}" "$@" 2>&1 | tee test-logs/jest-output.log
status=${PIPESTATUS[0]}
set -e
# Logs, jest's output and every recorded HTTP answer: no key or token, in any encoding.
node scripts/secret-leak-check.js test-logs
exit "$status"
