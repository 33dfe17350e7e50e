#!/usr/bin/env node
'use strict';
// Benchmark runner: `node bench/run.js [name ...]` runs every benchmark, or
// the named ones, prints each one's tables and writes them into
// docs/benchmarks.md. Needs `npm run build` and Redis on 127.0.0.1:6379 (all
// but metrics-parse). Timings are never pass/fail: compare the ratios inside
// one run, machines are shared and noisy.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { stopAllApps, ROOT, LOG_DIR } = require('./lib/app-process');
const { stopAllStacks } = require('./lib/stack');
const { pingRedis } = require('./lib/redis-prefix');
const { machineLine } = require('./lib/machine');
const { recordRun, DOC } = require('./lib/results-doc');

const BENCHMARKS = [
  require('./money.bench'),
  require('./money-day.bench'),
  require('./proxy-latency.bench'),
  require('./burst.bench'),
  require('./wake-gate.bench'),
  require('./metrics-parse.bench'),
  require('./status.bench'),
  require('./adapter.bench'),
  require('./start-overhead.bench'),
  require('./idle-tick-1000.bench'),
  require('./memory.bench'),
  require('./what-if.bench'),
];
const NEEDS_APPS = new Set([
  'money',
  'money-day',
  'proxy-latency',
  'burst',
  'wake-gate',
  'status',
  'start-overhead',
  'idle-tick-1000',
  'memory',
]);

function log(message) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

async function cleanup() {
  await stopAllStacks().catch((error) => log(`cleanup: ${error.message}`));
  await stopAllApps().catch((error) => log(`cleanup: ${error.message}`));
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping every process started and deleting their Redis keys`);
    cleanup().finally(() => process.exit(130));
  });
}

/** The BENCH_* knobs this run was given, as they would be typed before the command. */
function benchEnv() {
  return Object.entries(process.env)
    .filter(([key]) => key.startsWith('BENCH_') && key !== 'BENCH_DEBUG')
    .map(([key, value]) => `${key}=${/^[\w./:=,-]*$/.test(value) ? value : JSON.stringify(value)} `)
    .join('');
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`,
    );
  }
  const selected = wanted.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => wanted.includes(b.name));
  if (selected.some((b) => NEEDS_APPS.has(b.name))) {
    const missing = ['gateway', 'waker', 'idle-monitor', 'runpod-sim', 'inference-proxy'].filter(
      (app) => !existsSync(join(ROOT, 'dist', 'apps', app, 'main.js')),
    );
    if (missing.length > 0) throw new Error(`not built: ${missing.join(', ')}; run npm run build first`);
    await pingRedis();
  }
  for (const bench of selected) {
    const machine = machineLine();
    const started = Date.now();
    log(`${bench.name}: start (app logs in ${LOG_DIR})`);
    const { markdown } = await bench.run({ log });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const block = [
      `#### Run of ${new Date(started).toISOString().replace(/\.\d+Z$/, 'Z')} (${seconds} s)`,
      '',
      `Command: \`${benchEnv()}node bench/run.js ${bench.name}\` · machine: ${machine}`,
      '',
      markdown,
    ].join('\n');
    process.stdout.write(`\n## ${bench.title}\n\n${block}\n\n`);
    recordRun(bench.name, block);
    log(`${bench.name}: done in ${seconds} s; written to ${DOC}`);
  }
}

main()
  .then(cleanup)
  .catch(async (error) => {
    const detail = process.env.BENCH_DEBUG && error instanceof Error ? error.stack : String(error);
    log(`failed: ${detail}${process.env.BENCH_DEBUG ? '' : ' (BENCH_DEBUG=1 shows the stack)'}`);
    await cleanup();
    process.exitCode = 1;
  });
