#!/usr/bin/env bash
# The test command: Redis up, apps built (end-to-end specs run dist/ as real
# processes), then every jest project. Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-redis.sh
npm run build --silent
npx jest --ci "$@"
