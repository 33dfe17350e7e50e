#!/usr/bin/env bash
# Makes sure Debian's prometheus (the server and promtool) is installed for the
# alert-rule tests and the real-Prometheus end-to-end spec.
set -euo pipefail

if command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1; then
  echo "prometheus: $(promtool --version 2>&1 | head -1)"
  exit 0
fi

echo "prometheus: not installed, installing Debian's prometheus"
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo -n"; fi
$SUDO apt-get update -qq </dev/null
# Only the binaries are wanted: the tests start their own server on a free port.
$SUDO apt-get install -y -qq --no-install-recommends prometheus </dev/null
