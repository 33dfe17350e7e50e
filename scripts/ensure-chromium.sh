#!/usr/bin/env bash
# Makes sure Debian's chromium is at /usr/bin/chromium for the console's browser
# specs (playwright-core drives it; no browser is downloaded by npm).
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi

echo "chromium: not installed, installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo -n"; fi
$SUDO apt-get update -qq </dev/null
$SUDO apt-get install -y -qq chromium </dev/null
