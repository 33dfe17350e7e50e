'use strict';
// idle-tick-1000: one idle tick over 1,000 configured pods (PODS_CONFIG) on
// the simulator, 20 of them running and scraped. Each tick should read the
// account's pod list once whatever the number of pods (exactly one list
// call) and finish within 2 s. Durations are the tick jobs' own
// processedOn → finishedOn; list calls are counted inside each tick's window.
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Queue } = require('bullmq');
const Redis = require('ioredis');
const { Stack } = require('./lib/stack');
const { eventually } = require('./lib/app-process');
const { REDIS_URL } = require('./lib/redis-prefix');
const { markdownTable } = require('./lib/markdown-table');
const { percentile, fixed } = require('./lib/stats');

const PODS = 1000;
const RUNNING = 20;
const TICKS = Number(process.env.BENCH_TICKS || 6);
const CHECK_SECONDS = 3;
const TARGET_MS = 2000;

async function run({ log }) {
  const dir = mkdtempSync(join(tmpdir(), 'pw-bench-pods-'));
  const config = join(dir, 'pods.json');
  const pods = Array.from({ length: PODS }, (_, i) => ({ name: `pod${i}`, volumeId: `vol-bench-${i}` }));
  writeFileSync(config, JSON.stringify({ pods }));
  const stack = await Stack.start({
    name: 'idle-1000',
    gateway: false,
    idleMonitors: 1,
    env: { PODS_CONFIG: config, CHECK_SECONDS: String(CHECK_SECONDS), IDLE_MINUTES: '60' },
  });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('idle-tick', { connection: redis, prefix: stack.prefix });
  try {
    for (let i = 0; i < RUNNING; i++) {
      const seeded = await stack.simRequest('POST', '/_sim/pods', {
        status: 'RUNNING',
        volumeId: `vol-bench-${i * 50}`,
        dataCenterId: 'EU-RO-1',
      });
      if (seeded.status !== 201)
        throw new Error(`seed failed: ${seeded.status} ${JSON.stringify(seeded.body)}`);
    }
    const since = Date.now();
    await stack.simRequest('DELETE', '/_sim/calls');
    const ticks = await eventually(
      async () => {
        const done = (await queue.getCompleted(0, 100)).filter((job) => job.processedOn > since);
        return done.length >= TICKS ? done : undefined;
      },
      (TICKS + 10) * CHECK_SECONDS * 1000 + 60_000,
      `${TICKS} ticks`,
      500,
    );
    const calls = await stack.simCalls();
    const rows = ticks
      .sort((a, b) => a.processedOn - b.processedOn)
      .map((job) => {
        const inside = calls.filter((c) => {
          const at = Date.parse(c.at);
          return at >= job.processedOn - 5 && at <= job.finishedOn + 5;
        });
        return {
          ms: job.finishedOn - job.processedOn,
          lists: inside.filter((c) => c.method === 'GET' && c.path === '/pods').length,
          observes: inside.filter((c) => c.method === 'GET' && c.path.startsWith('/pods/')).length,
          other: inside.filter((c) => c.method !== 'GET').length,
        };
      });
    log(`ticks: ${rows.map((r) => `${r.ms} ms/${r.lists} list`).join(', ')}`);
    return { markdown: report(rows) };
  } finally {
    await queue.close();
    redis.disconnect();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(rows) {
  const ms = rows.map((r) => r.ms);
  const p50 = percentile(ms, 50);
  const worst = Math.max(...ms);
  const lists = [...new Set(rows.map((r) => r.lists))];
  return [
    `One idle monitor, ${PODS} pods in PODS_CONFIG (each on its own volume), ${RUNNING} of them RUNNING and serving vLLM /metrics in the simulator; ` +
      `CHECK_SECONDS=${CHECK_SECONDS}, ${rows.length} consecutive ticks. A tick's time is its BullMQ job's processedOn → finishedOn.`,
    '',
    markdownTable(
      ['tick', 'ms', 'GET /pods', 'GET /pods/{id}', 'writes'],
      rows.map((r, i) => [i + 1, r.ms, r.lists, r.observes, r.other]),
    ),
    '',
    `- **tick p50 ${fixed(p50, 0)} ms, worst ${fixed(worst, 0)} ms against a target of ≤ ${TARGET_MS} ms: ${worst <= TARGET_MS ? 'met' : 'not met'}.**`,
    `- **list calls per tick: ${lists.join(', ')}** (target exactly 1: ${lists.length === 1 && lists[0] === 1 ? 'met' : 'not met'}).`,
  ].join('\n');
}

module.exports = {
  name: 'idle-tick-1000',
  title: 'idle-tick-1000: one idle tick over 1,000 configured pods',
  run,
};
