#!/usr/bin/env node
// Runs the whole system locally against the RunPod simulator (no account, no money): Redis if none
// answers, a build, every app; prints how to use them once all answer, and stops them on one Ctrl-C.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { productionNodeOptions } = require('./production-node-options');
const { readableLine } = require('./readable-log');

const root = join(__dirname, '..');
const SIM_PORT = process.env.SIM_PORT || '8090';
const GATEWAY_PORT = process.env.PORT || '8080';
const TOKEN = process.env.RIG_OPERATOR_TOKEN || 'local-operator-token';
const PROXY_PORT = process.env.PROXY_PORT || '8081';
const WAKER_HEALTH_PORT = process.env.WAKER_HEALTH_PORT || '8082';
const IDLE_HEALTH_PORT = process.env.IDLE_HEALTH_PORT || '8083';
const INFERENCE_TOKEN = process.env.RIG_INFERENCE_TOKEN || 'local-inference-token';
const SIM_KEY = 'sim-local-key';
// How long the apps may take to answer, and to stop (each app's own grace is shorter).
const UP_WITHIN_MS = 120_000;
const STOP_WITHIN_MS = 45_000;
const colour = process.stdout.isTTY === true;

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status || 1);
}

run('bash', ['scripts/ensure-redis.sh']);
if (process.env.SKIP_BUILD !== '1' || !existsSync(join(root, 'dist/apps/gateway/main.js')))
  run('npm', ['run', 'build', '--silent']);

const env = {
  ...process.env,
  // The production heap ceiling (the Dockerfile's), unless you set your own.
  NODE_OPTIONS: process.env.NODE_OPTIONS || productionNodeOptions(),
  RUNPOD_API_KEY: SIM_KEY,
  RUNPOD_V2_BASE_URL: `http://127.0.0.1:${SIM_PORT}/v2`,
  RUNPOD_PROXY_URL_TEMPLATE: `http://127.0.0.1:${SIM_PORT}/proxy/{podId}-{port}`,
  RUNPOD_VOLUME_ID: process.env.RUNPOD_VOLUME_ID || 'vol-eu-ro-1',
  RUNPOD_TEMPLATE_ID: process.env.RUNPOD_TEMPLATE_ID || 'tpl-vllm-qwen',
  RUNPOD_DATACENTER_ID: process.env.RUNPOD_DATACENTER_ID || 'EU-RO-1',
  RIG_OPERATOR_TOKEN: TOKEN,
  RIG_INFERENCE_TOKEN: INFERENCE_TOKEN,
  PROXY_PORT,
  // A chat client waits for the pod; set PROXY_HOLD_SECONDS=0 to see the 503 + Retry-After answer instead.
  PROXY_HOLD_SECONDS: process.env.PROXY_HOLD_SECONDS || '300',
  QUEUE_PREFIX: process.env.QUEUE_PREFIX || 'podwarden-local',
  PORT: GATEWAY_PORT,
  HOST: '127.0.0.1',
  WAKE_POLL_INTERVAL_MS: process.env.WAKE_POLL_INTERVAL_MS || '1000',
  CHECK_SECONDS: process.env.CHECK_SECONDS || '5',
  IDLE_MINUTES: process.env.IDLE_MINUTES || '2',
  SIM_PORT,
  SIM_API_KEY: SIM_KEY,
  SIM_SPEED: process.env.SIM_SPEED || '10',
};

const apps = {
  'runpod-sim': { colour: 35, ready: `http://127.0.0.1:${SIM_PORT}/_sim/health` },
  gateway: { colour: 36, ready: `http://127.0.0.1:${GATEWAY_PORT}/health/ready` },
  waker: {
    colour: 33,
    ready: `http://127.0.0.1:${WAKER_HEALTH_PORT}/health/ready`,
    env: { HEALTH_PORT: WAKER_HEALTH_PORT },
  },
  'idle-monitor': {
    colour: 32,
    ready: `http://127.0.0.1:${IDLE_HEALTH_PORT}/health/ready`,
    env: { HEALTH_PORT: IDLE_HEALTH_PORT },
  },
  'inference-proxy': { colour: 34, ready: `http://127.0.0.1:${PROXY_PORT}/health/ready` },
};

const children = new Map();
let stopping = false;
// When an app last printed a line: the banner waits for start-up output to settle so it is the last thing shown.
let lastLineAt = Date.now();

function tagOf(app) {
  const name = app.padEnd(15);
  return colour ? `\x1b[${apps[app].colour}m${name}\x1b[0m` : name;
}

function start(app) {
  // Its own process group: a Ctrl-C in the terminal reaches this launcher
  // only, which then stops each app once (SIGTERM), not twice.
  const child = spawn(process.execPath, [join(root, 'dist/apps', app, 'main.js')], {
    cwd: root,
    env: { ...env, ...apps[app].env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const tag = tagOf(app);
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream.on('data', (chunk) => {
      buffer += chunk;
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        process.stdout.write(`${tag} ${readableLine(buffer.slice(0, i), colour)}\n`);
        buffer = buffer.slice(i + 1);
        lastLineAt = Date.now();
      }
    });
  }
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (!stopping) {
        process.stdout.write(`${tag} exited unexpectedly (${signal || code}); stopping the others\n`);
        shutdown(1);
      }
      resolve(code === 0 ? null : `${app} (${signal || code})`);
    });
  });
  children.set(app, { child, exited });
}

async function answers(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

async function waitUntilUp(names) {
  const deadline = Date.now() + UP_WITHIN_MS;
  for (const app of names) {
    while (!(await answers(apps[app].ready))) {
      if (stopping) return false;
      if (Date.now() > deadline) {
        process.stdout.write(
          `${tagOf(app)} did not answer ${apps[app].ready} within ${UP_WITHIN_MS / 1000} s\n`,
        );
        shutdown(1);
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return true;
}

let firstSignalAt = 0;
function onSignal() {
  // npm forwards the terminal's Ctrl-C to this process as well: a second
  // signal right after the first is the same Ctrl-C. A later one forces.
  if (!stopping) return shutdown(0);
  if (Date.now() - firstSignalAt < 2000) return;
  process.stdout.write('podwarden: second Ctrl-C, killing every app now\n');
  for (const { child } of children.values()) child.kill('SIGKILL');
  process.exit(1);
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  firstSignalAt = Date.now();
  process.stdout.write(`\npodwarden: stopping ${[...children.keys()].join(', ')}…\n`);
  const timer = setTimeout(() => {
    process.stdout.write(`podwarden: apps still running after ${STOP_WITHIN_MS / 1000} s; killing them\n`);
    for (const { child } of children.values()) child.kill('SIGKILL');
    process.exit(1);
  }, STOP_WITHIN_MS);
  timer.unref();
  // The simulator last: the others may still call it while they stop.
  const stop = (names) =>
    Promise.all(
      names.map((name) => {
        const { child, exited } = children.get(name);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        return exited;
      }),
    );
  const names = [...children.keys()];
  const failed = [
    ...(await stop(names.filter((name) => name !== 'runpod-sim'))),
    ...(await stop(names.filter((name) => name === 'runpod-sim'))),
  ].filter(Boolean);
  clearTimeout(timer);
  if (failed.length > 0 || code !== 0) {
    process.stdout.write(
      `podwarden: stopped; ${failed.length > 0 ? `exited with an error: ${failed.join(', ')}` : 'see above'}\n`,
    );
    process.exit(code || 1);
  }
  process.stdout.write('podwarden: every app stopped cleanly (Redis is left running).\n');
  process.exit(0);
}

// An app's health route can answer before its last start-up lines (the first billing reconcile, the
// "listening" line still in its pipe) reach us; a banner printed then would scroll away under them.
async function settled(quietMs, withinMs) {
  const deadline = Date.now() + withinMs;
  while (Date.now() - lastLineAt < quietMs && Date.now() < deadline && !stopping)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return !stopping;
}

function banner() {
  const base = `http://127.0.0.1:${GATEWAY_PORT}`;
  const proxy = `http://127.0.0.1:${PROXY_PORT}`;
  const rule = '─'.repeat(78);
  const op = `-H 'X-Rig-Operator-Token: ${TOKEN}'`;
  const chat = `curl -s ${proxy}/qwen/v1/chat/completions -H 'Authorization: Bearer ${INFERENCE_TOKEN}' -H 'Content-Type: application/json' -d '{"model":"qwen","messages":[{"role":"user","content":"Hello"}]}'`;
  const cliUrl = GATEWAY_PORT === '8080' ? [] : [`    export PODWARDEN_URL=${base}`];
  const lines = [
    rule,
    'podwarden is up, against the RunPod simulator (no RunPod account, no money).',
    '',
    `  Console:     ${base}/   (paste the operator token ${TOKEN} to use Start/Stop)`,
    `  Bull Board:  ${base}/admin/queues   (sign in: user any, password ${TOKEN})`,
    `  API docs:    ${base}/docs`,
    '',
    '  Try it (each command runs as printed):',
    '  wake the pod:',
    `    curl -s -X POST ${op} ${base}/api/pods/qwen/start`,
    '  status:',
    `    curl -s ${base}/api/pods/qwen`,
    '  chat through the inference proxy (wakes the pod if needed, holds the request until the model is ready):',
    `    ${chat}`,
    '  history:',
    `    curl -s ${base}/api/pods/qwen/history`,
    '  the CLI (the token is the operator token above):',
    `    export PODWARDEN_TOKEN=${TOKEN}`,
    ...cliUrl,
    '    npx podwarden start qwen --wait',
    '    npx podwarden status qwen',
    '  stop (or leave it: the idle monitor stops it after IDLE_MINUTES without a request):',
    `    curl -s -X POST ${op} ${base}/api/pods/qwen/stop`,
    '  simulator state (test and demo admin route):',
    `    curl -s http://127.0.0.1:${SIM_PORT}/_sim/state`,
    '',
    `  OpenAI SDK: base URL ${proxy}/qwen/v1, API key ${INFERENCE_TOKEN} (docs/inference-proxy.md)`,
    '',
    'What the apps do from here is logged below. Ctrl-C stops everything.',
    rule,
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

(async () => {
  start('runpod-sim');
  if (!(await waitUntilUp(['runpod-sim']))) return;
  const rest = ['gateway', 'waker', 'idle-monitor', 'inference-proxy'];
  for (const app of rest) start(app);
  if (!(await waitUntilUp(rest))) return;
  if (!(await settled(1000, 10_000))) return;
  banner();
})();
