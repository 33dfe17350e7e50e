'use strict';
// Seeds a pod's usage record (the sorted sets the apps write, see
// libs/platform/src/usage/usage-store.ts) with earlier days of a script, so an
// adaptive idle policy has the history it would have after living with it.
const Redis = require('ioredis');
const { REDIS_URL } = require('./redis-prefix');

const DAY_MS = 86_400_000;

/**
 * `day` is one day's usage relative to its start, in real ms:
 * { boots: [{ wakeAt, readyAt }], uses: [{ start, end }] }; it is written
 * once for each of the `days` days before `now`.
 */
async function seedUsageDays({ prefix, pod, day, days, now, pricePerHour, gpuId }) {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const uses = `${prefix}:usage-uses:${pod}`;
    const boots = `${prefix}:usage-boots:${pod}`;
    const write = redis.multi();
    for (let back = days; back >= 1; back--) {
      const base = now - back * DAY_MS;
      for (const use of day.uses) {
        const start = Math.round(base + use.start);
        write.zadd(uses, start, `${start}:${Math.round(base + use.end)}`);
      }
      for (const boot of day.boots) {
        const wakeAt = Math.round(base + boot.wakeAt);
        const readyAt = Math.round(base + boot.readyAt);
        write.zadd(boots, wakeAt, JSON.stringify({ wakeAt, readyAt, gpuId, pricePerHour, prewake: false }));
      }
    }
    await write.exec();
    return { uses: days * day.uses.length, boots: days * day.boots.length };
  } finally {
    redis.disconnect();
  }
}

module.exports = { seedUsageDays };
