#!/usr/bin/env bash
# Makes sure a Redis answers on 127.0.0.1:6379: uses the one running, else starts
# one (installing Debian's redis-server first when it is missing).
set -euo pipefail

redis_answers() {
  if command -v redis-cli >/dev/null 2>&1; then
    redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG
  else
    # No client: speak RESP by hand.
    exec 3<>/dev/tcp/127.0.0.1/6379 2>/dev/null || return 1
    printf 'PING\r\n' >&3
    local reply
    read -r -t 2 reply <&3 || true
    exec 3>&-
    [[ "$reply" == +PONG* ]]
  fi
}

if redis_answers; then
  echo "redis: answering on 127.0.0.1:6379"
  exit 0
fi

if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis: not installed, installing Debian's redis-server"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo -n"; fi
  $SUDO apt-get update -qq </dev/null
  $SUDO apt-get install -y -qq redis-server </dev/null
fi

echo "redis: starting redis-server on 127.0.0.1:6379"
redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
  --maxmemory-policy noeviction --dir /tmp --logfile /tmp/podwarden-redis.log

for _ in $(seq 1 50); do
  if redis_answers; then
    echo "redis: up"
    exit 0
  fi
  sleep 0.2
done
echo "redis: did not come up on 127.0.0.1:6379 (see /tmp/podwarden-redis.log)" >&2
exit 1
