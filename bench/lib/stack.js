'use strict';
// The system under benchmark as real processes: the simulator, the gateway, N
// wakers and M idle monitors on one Redis under a prefix of their own. A plain
// JavaScript copy of the minimum of test/support/stack.ts. `root` runs another
// checkout's built apps (a baseline); the simulator is always this checkout's.
const { randomBytes } = require('node:crypto');
const { AppProcess, eventually } = require('./app-process');
const { freePort } = require('./free-port');
const { REDIS_URL, countPrefix, deletePrefix } = require('./redis-prefix');

// Fake credentials, only ever sent to the local simulator and gateway.
const API_KEY = 'rpa_BENCHKEY_not_a_real_key_0c4f';
const OPERATOR_TOKEN = 'bench-operator-token-51ab';
const WAKE_TOKEN = 'bench-wake-token-9e07';
const VOLUME_ID = 'vol-eu-ro-1';

/** Stacks not yet stopped, for the runner's cleanup on error or Ctrl-C. */
const live = new Set();

class Stack {
  constructor(options) {
    this.options = options;
    this.prefix = `pwbench-${options.name}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.wakers = [];
    this.idleMonitors = [];
    this.gateway = null;
    this.inferenceProxy = null;
    this.sim = null;
    this.keysLeft = null;
  }

  static async start(options) {
    const stack = new Stack(options);
    live.add(stack);
    try {
      await stack.boot();
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  async boot() {
    const simPort = await freePort();
    this.simUrl = `http://127.0.0.1:${simPort}`;
    this.sim = AppProcess.start(
      'runpod-sim',
      {
        SIM_PORT: String(simPort),
        SIM_HOST: '127.0.0.1',
        SIM_API_KEY: API_KEY,
        ...(this.options.simEnv || {}),
      },
      `${this.options.name}-sim`,
    );
    await eventually(
      async () => ((await fetch(`${this.simUrl}/_sim/health`)).ok ? true : undefined),
      15_000,
      'simulator up',
    );

    const gatewayPort = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    this.env = {
      REDIS_URL,
      QUEUE_PREFIX: this.prefix,
      RUNPOD_API_KEY: API_KEY,
      RUNPOD_V2_BASE_URL: `${this.simUrl}/v2`,
      RUNPOD_PROXY_URL_TEMPLATE: `${this.simUrl}/proxy/{podId}-{port}`,
      RUNPOD_VOLUME_ID: VOLUME_ID,
      RUNPOD_TEMPLATE_ID: 'tpl-vllm-qwen',
      RUNPOD_DATACENTER_ID: 'EU-RO-1',
      RIG_OPERATOR_TOKEN: OPERATOR_TOKEN,
      RIG_WAKE_TOKEN: WAKE_TOKEN,
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...(this.options.env || {}),
    };
    const waits = [];
    for (let i = 0; i < (this.options.wakers || 0); i++)
      waits.push(this.startWorker('waker', 'waker consuming wake jobs'));
    for (let i = 0; i < (this.options.idleMonitors || 0); i++)
      waits.push(this.startWorker('idle-monitor', 'idle monitor ticking'));
    if (this.options.inferenceProxy) waits.push(this.startInferenceProxy());
    if (this.options.gateway !== false) {
      this.gateway = AppProcess.start('gateway', this.env, `${this.options.name}-gateway`, this.options.root);
      waits.push(
        eventually(
          async () => ((await fetch(`${this.gatewayUrl}/health/ready`)).ok ? true : undefined),
          30_000,
          'gateway ready',
          100,
        ),
      );
    }
    await Promise.all(waits);
  }

  async startInferenceProxy() {
    const port = await freePort();
    this.proxyUrl = `http://127.0.0.1:${port}`;
    this.inferenceProxy = AppProcess.start(
      'inference-proxy',
      { ...this.env, PROXY_PORT: String(port) },
      `${this.options.name}-inference-proxy`,
      this.options.root,
    );
    await this.inferenceProxy.waitForMessage('inference proxy listening', 30_000);
  }

  async startWorker(app, readyMessage) {
    const list = app === 'waker' ? this.wakers : this.idleMonitors;
    const worker = AppProcess.start(
      app,
      this.env,
      `${this.options.name}-${app}${list.length}`,
      this.options.root,
    );
    list.push(worker);
    await worker.waitForMessage(readyMessage, 30_000);
    return worker;
  }

  /** Stops every process of the stack, deletes its Redis keys and records how many were left (0 expected). */
  async stop() {
    const apps = [this.gateway, this.inferenceProxy, ...this.wakers, ...this.idleMonitors].filter(Boolean);
    await Promise.all(apps.map((app) => app.stop()));
    if (this.sim) await this.sim.stop();
    try {
      await deletePrefix(this.prefix);
      this.keysLeft = await countPrefix(this.prefix);
    } catch (error) {
      this.keysLeft = `unknown (${error.message})`;
    }
    live.delete(this);
  }

  /** A gateway request; token 'operator' | 'wake' | undefined. Resolves with status, JSON body and elapsed ms. */
  api(method, path, token) {
    const headers = {};
    if (token === 'operator') headers['X-Rig-Operator-Token'] = OPERATOR_TOKEN;
    else if (token === 'wake') headers['X-Rig-Operator-Token'] = WAKE_TOKEN;
    return request(`${this.gatewayUrl}${path}`, method, headers);
  }

  /** A simulator request: /_sim admin routes, the /proxy, or /v2 with the bearer. */
  simRequest(method, path, body) {
    const headers = path.startsWith('/v2') ? { Authorization: `Bearer ${API_KEY}` } : {};
    return request(`${this.simUrl}${path}`, method, headers, body);
  }

  async simCalls(query = '') {
    const answer = await this.simRequest('GET', `/_sim/calls${query}`);
    return answer.body.calls;
  }
}

async function request(url, method, headers, body) {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let parsed;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed, ms, at: Date.now() };
}

async function stopAllStacks() {
  await Promise.all([...live].map((stack) => stack.stop()));
}

module.exports = { Stack, stopAllStacks, VOLUME_ID };
