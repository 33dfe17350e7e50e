#!/usr/bin/env node
// Runs the whole system locally against the RunPod simulator: no RunPod
// account, no money. Starts Redis if none answers, builds the apps, then runs
// runpod-sim, gateway, waker and idle-monitor until Ctrl-C.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { productionNodeOptions } = require('./production-node-options');

const root = join(__dirname, '..');
const SIM_PORT = process.env.SIM_PORT || '8090';
const GATEWAY_PORT = process.env.PORT || '8080';
const TOKEN = process.env.RIG_OPERATOR_TOKEN || 'local-operator-token';
const PROXY_PORT = process.env.PROXY_PORT || '8081';
const INFERENCE_TOKEN = process.env.RIG_INFERENCE_TOKEN || 'local-inference-token';
const SIM_KEY = 'sim-local-key';

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

const colours = { 'runpod-sim': 35, gateway: 36, waker: 33, 'idle-monitor': 32, 'inference-proxy': 34 };
const children = [];
function start(app) {
  const child = spawn(process.execPath, [join(root, 'dist/apps', app, 'main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tag = `\x1b[${colours[app]}m${app.padEnd(15)}\x1b[0m`;
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream.on('data', (chunk) => {
      buffer += chunk;
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        process.stdout.write(`${tag} ${buffer.slice(0, i)}\n`);
        buffer = buffer.slice(i + 1);
      }
    });
  }
  child.on('exit', (code, signal) => {
    process.stdout.write(`${tag} exited (${signal || code})\n`);
    if (!stopping) shutdown(1);
  });
  children.push(child);
}

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

start('runpod-sim');
setTimeout(() => {
  if (stopping) return;
  for (const app of ['gateway', 'waker', 'idle-monitor', 'inference-proxy']) start(app);
  const base = `http://127.0.0.1:${GATEWAY_PORT}`;
  setTimeout(() => {
    if (stopping) return;
    process.stdout.write(`
podwarden is running against the RunPod simulator (no account, no money).

  wake the pod:   curl -s -X POST -H 'X-Rig-Operator-Token: ${TOKEN}' ${base}/api/pods/qwen/start
  status:         curl -s ${base}/api/pods/qwen
  stop:           curl -s -X POST -H 'X-Rig-Operator-Token: ${TOKEN}' ${base}/api/pods/qwen/stop
  history:        curl -s ${base}/api/pods/qwen/history
  chat (activity): curl -s -X POST http://127.0.0.1:${SIM_PORT}/proxy/<podId>-8000/v1/chat/completions -d '{}'
  chat through the inference proxy (wakes the pod, holds the request until the model is ready):
    curl -s http://127.0.0.1:${PROXY_PORT}/qwen/v1/chat/completions -H 'Authorization: Bearer ${INFERENCE_TOKEN}' -H 'Content-Type: application/json' -d '{"model":"qwen","messages":[{"role":"user","content":"Hello"}]}'
  OpenAI SDK:     base URL http://127.0.0.1:${PROXY_PORT}/qwen/v1, API key ${INFERENCE_TOKEN} (docs/inference-proxy.md)
  Bull Board:     ${base}/admin/queues  (user any, password ${TOKEN})
  API docs:       ${base}/docs
  simulator:      http://127.0.0.1:${SIM_PORT}/_sim/state   (test/demo admin routes)

Ctrl-C stops everything.
`);
  }, 2500);
}, 800);
