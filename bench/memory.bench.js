'use strict';
// memory: resident set size of each app, idle and under load. Idle is the
// peak over a quiet stretch after start-up; under load, the gateway takes
// concurrent GET status and POST start (AlreadyRunning, so the waker works
// too) while the idle monitor ticks every second. Target: ≤ 150 MB each.
const { readFileSync } = require('node:fs');
const { Stack, VOLUME_ID } = require('./lib/stack');
const { sleep } = require('./lib/app-process');
const { markdownTable } = require('./lib/markdown-table');
const { fixed } = require('./lib/stats');

const QUIET_MS = 5_000;
const LOAD_MS = Number(process.env.BENCH_LOAD_MS || 20_000);
const CONCURRENCY = 20;
const TARGET_MB = 150;

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Samples every app's RSS every 250 ms while `during` runs; resolves with the peak per app. */
async function peaks(apps, during) {
  const peak = Object.fromEntries(apps.map(([name]) => [name, 0]));
  let done = false;
  const sampler = (async () => {
    while (!done) {
      for (const [name, app] of apps) peak[name] = Math.max(peak[name], rssMb(app.child.pid));
      await sleep(250);
    }
  })();
  try {
    await during();
  } finally {
    done = true;
    await sampler;
  }
  return peak;
}

async function run({ log }) {
  const stack = await Stack.start({
    name: 'memory',
    wakers: 1,
    idleMonitors: 1,
    // BENCH_NODE_OPTIONS (e.g. --max-old-space-size=96) shows how much of the RSS is heap headroom.
    env: {
      CHECK_SECONDS: '1',
      IDLE_MINUTES: '60',
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    },
  });
  try {
    const seeded = await stack.simRequest('POST', '/_sim/pods', { status: 'RUNNING', volumeId: VOLUME_ID });
    if (seeded.status !== 201) throw new Error(`seed failed: ${seeded.status}`);
    const apps = [
      ['gateway', stack.gateway],
      ['waker', stack.wakers[0]],
      ['idle-monitor', stack.idleMonitors[0]],
      ['runpod-sim (not a target)', stack.sim],
    ];
    const idle = await peaks(apps, () => sleep(QUIET_MS));
    let requests = 0;
    let failures = 0;
    const loaded = await peaks(apps, async () => {
      const until = Date.now() + LOAD_MS;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, i) => {
          while (Date.now() < until) {
            const answer =
              i % 2 === 0
                ? await stack.api('GET', '/api/pods/qwen')
                : await stack.api('POST', '/api/pods/qwen/start', 'operator');
            requests++;
            if (answer.status !== 200) failures++;
          }
        }),
      );
    });
    log(`load: ${requests} requests in ${LOAD_MS} ms, ${failures} not 200`);
    return { markdown: report(apps, idle, loaded, requests, failures) };
  } finally {
    await stack.stop();
  }
}

function report(apps, idle, loaded, requests, failures) {
  const verdict = (name) =>
    name.startsWith('runpod-sim')
      ? ''
      : loaded[name] <= TARGET_MB && idle[name] <= TARGET_MB
        ? 'met'
        : 'not met';
  return [
    `Gateway, one waker, one idle monitor (CHECK_SECONDS=1) and the simulator with one RUNNING pod` +
      `${process.env.BENCH_NODE_OPTIONS ? `, every app with NODE_OPTIONS=${process.env.BENCH_NODE_OPTIONS}` : ''}. Idle: peak RSS over ${QUIET_MS / 1000} s after start-up. ` +
      `Under load: peak RSS over ${LOAD_MS / 1000} s of ${CONCURRENCY} concurrent clients, half GET /api/pods/qwen, half POST …/start (AlreadyRunning), ` +
      `${requests} requests (${fixed(requests / (LOAD_MS / 1000), 0)}/s, ${failures} not 200). RSS from /proc/<pid>/status, sampled every 250 ms.`,
    '',
    markdownTable(
      ['app', 'idle MB', 'under load MB', `≤ ${TARGET_MB} MB`],
      apps.map(([name]) => [name, fixed(idle[name]), fixed(loaded[name]), verdict(name)]),
    ),
  ].join('\n');
}

module.exports = { name: 'memory', title: 'memory: resident set size of each app, idle and under load', run };
