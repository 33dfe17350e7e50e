'use strict';
// Every benchmark stack runs under a QUEUE_PREFIX of its own; these helpers
// count and delete the keys under it so a run leaves Redis as it found it.
const Redis = require('ioredis');

const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';

async function withRedis(use) {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true, connectTimeout: 2_000 });
  redis.on('error', () => undefined); // the awaited command reports the failure; no unhandled-event noise
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

async function scanPrefix(redis, prefix, onKeys) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await onKeys(keys);
  } while (cursor !== '0');
}

function deletePrefix(prefix) {
  return withRedis((redis) => scanPrefix(redis, prefix, (keys) => redis.del(...keys)));
}

function countPrefix(prefix) {
  return withRedis(async (redis) => {
    let count = 0;
    await scanPrefix(redis, prefix, async (keys) => {
      count += keys.length;
    });
    return count;
  });
}

/** Throws a readable error when no Redis answers, before any app is started. */
function pingRedis() {
  return withRedis((redis) => redis.ping()).catch((error) => {
    throw new Error(
      `no Redis at ${REDIS_URL} (${error.message}); start one, e.g. bash scripts/ensure-redis.sh`,
    );
  });
}

module.exports = { REDIS_URL, deletePrefix, countPrefix, pingRedis };
