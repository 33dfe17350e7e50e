'use strict';
// memory: resident set size of each app, idle and under load. Idle is the
// peak over a quiet stretch after start-up; under load, the gateway takes
// concurrent GET status and POST start (AlreadyRunning, so the waker works
// too) while the idle monitor ticks every second. Target: ≤ 150 MB each.
const { readFileSync } = require('node:fs');
const { Stack, VOLUME_ID } = require('./lib/stack');
const { sleep } = require('./lib/app-process');
const { markdownTable } = require('./lib/markdown-table');
const { fixed, percentile } = require('./lib/stats');
const { productionNodeOptions } = require('../scripts/production-node-options');

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
      for (const [name, app] of apps) peak[name] = Math.max(peak[name], rssMb(app.pid));
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

/**
 * Two stacks at once, one with V8's default heap, one with the production
 * heap settings (the Dockerfile's NODE_OPTIONS, or BENCH_NODE_OPTIONS to try
 * others). Every client sends each request to both gateways in turn, so both
 * see the same load and the same machine; their latencies tell what the
 * ceiling costs.
 */
async function run({ log }) {
  const production = process.env.BENCH_NODE_OPTIONS || productionNodeOptions();
  const variants = [
    { label: 'default heap', nodeOptions: '' },
    { label: `NODE_OPTIONS="${production}"`, nodeOptions: production },
  ];
  const stacks = [];
  try {
    for (const variant of variants) stacks.push(await startStack(variant));
    const apps = stacks.flatMap((stack, v) => appsOf(stack).map(([name, app]) => [`${v}:${name}`, app]));
    const idle = await peaks(apps, () => sleep(QUIET_MS));
    const latencies = stacks.map(() => []);
    let failures = 0;
    const loaded = await peaks(apps, async () => {
      const until = Date.now() + LOAD_MS;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, i) => {
          for (let round = 0; Date.now() < until; round++) {
            // The order flips every round, so neither stack always goes first.
            for (const v of round % 2 === 0 ? [0, 1] : [1, 0]) {
              const answer =
                i % 2 === 0
                  ? await stacks[v].api('GET', '/api/pods/qwen')
                  : await stacks[v].api('POST', '/api/pods/qwen/start', 'operator');
              latencies[v].push(answer.ms);
              if (answer.status !== 200) failures++;
            }
          }
        }),
      );
    });
    const exited = apps.filter(([, app]) => !app.running).map(([name]) => name);
    log(
      `${latencies[0].length} requests to each gateway in ${LOAD_MS} ms, ${failures} not 200, exited: ${exited.join(', ') || 'none'}`,
    );
    const results = variants.map((variant, v) => ({
      ...variant,
      idle: pick(idle, v),
      loaded: pick(loaded, v),
      latencies: latencies[v],
    }));
    return { markdown: report(results, production, failures, exited) };
  } finally {
    await Promise.all(stacks.map((stack) => stack.stop()));
  }
}

function startStack(variant) {
  return Stack.start({
    name: 'memory',
    wakers: 1,
    idleMonitors: 1,
    // The apps' own environment carries no NODE_OPTIONS unless given here.
    env: {
      CHECK_SECONDS: '1',
      IDLE_MINUTES: '60',
      ...(variant.nodeOptions ? { NODE_OPTIONS: variant.nodeOptions } : {}),
    },
  }).then(async (stack) => {
    const seeded = await stack.simRequest('POST', '/_sim/pods', { status: 'RUNNING', volumeId: VOLUME_ID });
    if (seeded.status !== 201) throw new Error(`seed failed: ${seeded.status}`);
    return stack;
  });
}

function appsOf(stack) {
  return [
    ['gateway', stack.gateway],
    ['waker', stack.wakers[0]],
    ['idle-monitor', stack.idleMonitors[0]],
    ['runpod-sim (not a target)', stack.sim],
  ];
}

/** One stack's peaks out of the samples of both, keyed by app name. */
function pick(peak, v) {
  return Object.fromEntries(
    Object.entries(peak)
      .filter(([key]) => key.startsWith(`${v}:`))
      .map(([key, mb]) => [key.slice(2), mb]),
  );
}

function report(results, production, failures, exited) {
  const verdict = (r, name) =>
    name.startsWith('runpod-sim')
      ? ''
      : r.loaded[name] <= TARGET_MB && r.idle[name] <= TARGET_MB
        ? 'met'
        : 'not met';
  const [base, prod] = results;
  const names = Object.keys(base.idle);
  const p = (r, q) => percentile(r.latencies, q);
  return [
    `Two stacks at once, each a gateway, one waker, one idle monitor (CHECK_SECONDS=1) and a simulator with one RUNNING pod: one with V8's default heap, ` +
      `one with every app under NODE_OPTIONS="${production}"${process.env.BENCH_NODE_OPTIONS ? ' (BENCH_NODE_OPTIONS)' : " (the Dockerfile's, what production runs)"}. ` +
      `Idle: peak RSS over ${QUIET_MS / 1000} s after start-up. Under load: peak RSS over ${LOAD_MS / 1000} s of ${CONCURRENCY} concurrent clients, half GET /api/pods/qwen, half POST …/start (AlreadyRunning), ` +
      `each client sending every request to both gateways in turn (the order flipping every round): ${base.latencies.length} requests to each. RSS from /proc/<pid>/status, sampled every 250 ms.`,
    '',
    markdownTable(
      [
        'app',
        ...results.flatMap((r) => [`${r.label}: idle MB`, 'under load MB', `≤ ${TARGET_MB} MB`]),
        'under load: ceiling / default',
      ],
      names.map((name) => [
        name,
        ...results.flatMap((r) => [fixed(r.idle[name]), fixed(r.loaded[name]), verdict(r, name)]),
        `${fixed(prod.loaded[name] / base.loaded[name], 2)}×`,
      ]),
    ),
    '',
    `- **Request latency under that load (client side, both routes): default heap p50 ${fixed(p(base, 50))} ms, p99 ${fixed(p(base, 99))} ms; ` +
      `with the ceiling p50 ${fixed(p(prod, 50))} ms, p99 ${fixed(p(prod, 99))} ms (p50 ${fixed(p(prod, 50) / p(base, 50), 2)}×).**`,
    `- ${failures} answers not 200; apps that exited during the run: ${exited.join(', ') || 'none'}.`,
  ].join('\n');
}

module.exports = { name: 'memory', title: 'memory: resident set size of each app, idle and under load', run };
