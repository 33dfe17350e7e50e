#!/usr/bin/env bash
# The robustness check: the whole end-to-end project, RUNS times in a row (default 3),
# while one CPU-bound process keeps a core busy. Builds once first. Each run's jest
# output goes to test-logs/e2e-under-load-<n>.log; a summary line per run is printed
# and the script exits non-zero if any run failed. Usage: bash scripts/e2e-under-load.sh [RUNS]
# E2E_WORKERS=N runs N spec files at once (jest --maxWorkers; default: jest's own, one on 2 cores):
# more contention beside the hog, and about half the wall time, since the specs mostly wait.
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
bash scripts/ensure-redis.sh
# The console's browser specs are part of the e2e project: they need Debian's chromium.
bash scripts/ensure-chromium.sh </dev/null || exit 1
npm run build --silent || exit 1
mkdir -p test-logs
node -e 'for (;;) {}' &
hog=$!
trap 'kill "$hog" 2>/dev/null' EXIT
failed=0
for n in $(seq 1 "$runs"); do
  started=$(date +%s)
  npx jest --ci --selectProjects e2e ${E2E_WORKERS:+--maxWorkers="$E2E_WORKERS"} >"test-logs/e2e-under-load-$n.log" 2>&1
  status=$?
  summary=$(grep -E '^Tests:' "test-logs/e2e-under-load-$n.log" | tail -1)
  echo "run $n/$runs: exit $status, $(($(date +%s) - started)) s, $summary"
  [ "$status" -eq 0 ] || failed=$((failed + 1))
done
echo "$((runs - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
