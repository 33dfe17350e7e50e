'use strict';
// status: what a status poller costs. Three measurements on one stack, in one run, so the ratios
// compare like with like on a shared machine:
//  1. a lone GET /api/pods/qwen against a lone GET /health/live, interleaved one by one (p50 gap);
//  2. throughput at 32 connections (autocannon), /health/live then GET, taking turns;
//  3. many GETs over two gateway replicas for several freshness periods: RunPod list calls per
//     volume per STATUS_MAX_AGE_MS, counted from the simulator's call log.
const http = require('node:http');
const autocannon = require('autocannon');
const { Stack, VOLUME_ID } = require('./lib/stack');
const { startApp, eventually, sleep } = require('./lib/app-process');
const { freePort } = require('./lib/free-port');
const { markdownTable } = require('./lib/markdown-table');
const { percentile, fixed } = require('./lib/stats');

const MAX_AGE_MS = 2000; // the default STATUS_MAX_AGE_MS
const LONE_ROUNDS = Number(process.env.BENCH_STATUS_LONE || 2000);
const LOAD_SECONDS = Number(process.env.BENCH_STATUS_SECONDS || 10);
const TURNS = Number(process.env.BENCH_STATUS_TURNS || 2);
const CONNECTIONS = 32;
// The gateway stamps observedAt before it sends the list, the simulator stamps the list on arrival:
// a few ms apart under load, so two lists one freshness period apart may arrive a ms or two closer.
const JITTER_MS = 10;
const REPLICA_SECONDS = Number(process.env.BENCH_STATUS_REPLICA_SECONDS || 20);

async function run({ log }) {
  const stack = await Stack.start({ name: 'status', wakers: 0, idleMonitors: 0 });
  let second = null;
  try {
    const seeded = await stack.simRequest('POST', '/_sim/pods', { status: 'RUNNING', volumeId: VOLUME_ID });
    if (seeded.status !== 201) throw new Error(`seed failed: ${seeded.status}`);
    second = await startSecondGateway(stack);
    log(`two gateways up (${stack.gatewayUrl}, ${second.url}); RUNNING pod ${seeded.body.id}; warming up`);
    await load(stack.gatewayUrl, '/api/pods/qwen', 3);
    await load(stack.gatewayUrl, '/health/live', 3);

    const lone = await loneLatencies(stack.gatewayUrl);
    log(`lone p50: health ${fixed(lone.health.p50, 2)} ms, GET ${fixed(lone.get.p50, 2)} ms`);

    const throughput = { health: [], get: [] };
    for (let turn = 0; turn < TURNS; turn++) {
      throughput.health.push(await load(stack.gatewayUrl, '/health/live', LOAD_SECONDS));
      throughput.get.push(await load(stack.gatewayUrl, '/api/pods/qwen', LOAD_SECONDS));
    }
    log(
      `32 connections: health ${throughput.health.map((r) => r.rps).join(' ')} req/s; GET ${throughput.get.map((r) => r.rps).join(' ')} req/s`,
    );

    const replicas = await replicaLists(stack, second.url);
    log(
      `two replicas: ${replicas.gets} GETs, ${replicas.lists} lists in ${fixed(replicas.seconds, 1)} s, min gap ${replicas.minGapMs} ms`,
    );
    return { markdown: report(lone, throughput, replicas) };
  } finally {
    if (second) await second.process.stop();
    await stack.stop();
    log(`redis keys left under ${stack.prefix}: ${stack.keysLeft}`);
  }
}

async function startSecondGateway(stack) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = startApp('gateway', { ...stack.env, PORT: String(port) }, 'status-gateway2');
  await eventually(
    async () => ((await fetch(`${url}/health/ready`)).ok ? true : undefined),
    30_000,
    'gateway 2 ready',
    100,
  );
  return { url, process };
}

/** One keep-alive connection, GET health and GET status taking turns, each timed from send to last byte. */
async function loneLatencies(baseUrl) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = { health: [], get: [] };
  try {
    for (let i = 0; i < LONE_ROUNDS; i++) {
      times.health.push(await timed(agent, `${baseUrl}/health/live`));
      times.get.push(await timed(agent, `${baseUrl}/api/pods/qwen`));
    }
  } finally {
    agent.destroy();
  }
  const summary = (values) => ({
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    n: values.length,
  });
  return { health: summary(times.health), get: summary(times.get) };
}

function timed(agent, url) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get(url, { agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    });
    req.on('error', reject);
  });
}

/** autocannon at 32 connections for some seconds; requests per second and p50/p99 latency. */
async function load(baseUrl, path, seconds, connections = CONNECTIONS) {
  const result = await autocannon({ url: `${baseUrl}${path}`, connections, duration: seconds });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${path}: ${bad} failed requests under load`);
  return {
    rps: Math.round(result.requests.total / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

/** GETs on both replicas at once for several freshness periods; list calls from the simulator's log. */
async function replicaLists(stack, secondUrl) {
  await sleep(MAX_AGE_MS + 100);
  await stack.simRequest('DELETE', '/_sim/calls');
  const started = Date.now();
  const results = await Promise.all([
    load(stack.gatewayUrl, '/api/pods/qwen', REPLICA_SECONDS, CONNECTIONS / 2),
    load(secondUrl, '/api/pods/qwen', REPLICA_SECONDS, CONNECTIONS / 2),
  ]);
  const seconds = (Date.now() - started) / 1000;
  const calls = await stack.simCalls();
  const at = calls.filter((c) => c.method === 'GET' && c.path === '/pods').map((c) => Date.parse(c.at));
  const gaps = at.slice(1).map((t, i) => t - at[i]);
  return {
    gets: results[0].total + results[1].total,
    lists: at.length,
    seconds,
    minGapMs: gaps.length === 0 ? NaN : Math.min(...gaps),
    maxInWindow: maxInWindow(at, MAX_AGE_MS - JITTER_MS),
  };
}

/** The most list calls whose arrival times fall within one window of the given length. */
function maxInWindow(times, windowMs) {
  let most = 0;
  for (let i = 0; i < times.length; i++) {
    most = Math.max(most, times.filter((t) => t >= times[i] && t < times[i] + windowMs).length);
  }
  return most;
}

function report(lone, throughput, replicas) {
  const best = (rows) => Math.max(...rows.map((r) => r.rps));
  const healthRps = best(throughput.health);
  const getRps = best(throughput.get);
  const gap = lone.get.p50 - lone.health.p50;
  const table = markdownTable(
    ['measure', '/health/live', 'GET /api/pods/qwen', 'result', 'target'],
    [
      [
        `lone request p50 (p99), ms; ${lone.get.n} each, interleaved on one keep-alive connection`,
        `${fixed(lone.health.p50, 2)} (${fixed(lone.health.p99, 2)})`,
        `${fixed(lone.get.p50, 2)} (${fixed(lone.get.p99, 2)})`,
        `GET is ${fixed(gap, 2)} ms slower`,
        `≤ 2 ms: ${gap <= 2 ? 'met' : 'missed'}`,
      ],
      [
        `throughput at ${CONNECTIONS} connections, req/s (best of ${TURNS} × ${LOAD_SECONDS} s, taking turns)`,
        throughput.health.map((r) => r.rps).join(' / '),
        throughput.get.map((r) => r.rps).join(' / '),
        `GET at ${fixed(getRps / healthRps, 2)}× /health/live`,
        `≥ 0.5×: ${getRps / healthRps >= 0.5 ? 'met' : 'missed'}`,
      ],
      [
        `latency under that load, p50 / p99 ms (autocannon, whole ms)`,
        throughput.health.map((r) => `${r.p50} / ${r.p99}`).join(', '),
        throughput.get.map((r) => `${r.p50} / ${r.p99}`).join(', '),
        '',
        '',
      ],
      [
        `RunPod lists with GETs on 2 gateway replicas (${CONNECTIONS / 2} connections each, ${fixed(replicas.seconds, 1)} s, STATUS_MAX_AGE_MS ${MAX_AGE_MS})`,
        '',
        `${replicas.gets} GETs → ${replicas.lists} lists, closest two ${replicas.minGapMs} ms apart`,
        `at most ${replicas.maxInWindow} list(s) in any ${MAX_AGE_MS} ms window (less ${JITTER_MS} ms of stamp jitter)`,
        `≤ 1: ${replicas.maxInWindow <= 1 ? 'met' : 'missed'}`,
      ],
    ],
  );
  return [
    'One gateway (two for the last row) against the simulator holding one RUNNING pod; no waker or idle monitor, so every RunPod list counted is a status refresh. The lone-request row times one keep-alive connection from send to last byte, GET and /health/live taking turns; the load rows use autocannon, the two routes taking turns.',
    '',
    table,
  ].join('\n');
}

module.exports = { name: 'status', title: 'Status at cache speed', run };
