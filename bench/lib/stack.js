'use strict';
// The system under benchmark as real processes: the simulator, the gateway, N wakers, M idle monitors
// and an inference proxy on one Redis under a prefix of their own, launched by the e2e specs' own
// StackLauncher (test/support/stack-launcher.ts). `root` runs another checkout's built apps (a
// baseline); the simulator is always this checkout's.
const { randomBytes } = require('node:crypto');
const launcher = require('./launcher');
const { profileArgs } = require('./app-process');
const { REDIS_URL, countPrefix, deletePrefix } = require('./redis-prefix');

const { StackLauncher, VOLUME_ID } = launcher['stack-launcher'];

// Fake credentials, only ever sent to the local simulator and gateway.
const API_KEY = 'rpa_BENCHKEY_not_a_real_key_0c4f';
const OPERATOR_TOKEN = 'bench-operator-token-51ab';
const WAKE_TOKEN = 'bench-wake-token-9e07';
const PROFILED_APPS = ['gateway', 'waker', 'idle-monitor', 'inference-proxy'];

/** Stacks not yet stopped, for the runner's cleanup on error or Ctrl-C. */
const live = new Set();

class Stack extends StackLauncher {
  /** Options as before: name, wakers, idleMonitors, gateway, inferenceProxy, env, simEnv, root. */
  static async start(options) {
    const { inferenceProxy, ...rest } = options;
    const perApp = Object.fromEntries(PROFILED_APPS.map((app) => [app, { nodeArgs: profileArgs(app) }]));
    const stack = new Stack(
      { ...rest, proxies: inferenceProxy ? 1 : 0, perApp },
      {
        prefix: `pwbench-${options.name}-${process.pid}-${randomBytes(3).toString('hex')}`,
        redisUrl: REDIS_URL,
        apiKey: API_KEY,
        operatorToken: OPERATOR_TOKEN,
        wakeToken: WAKE_TOKEN,
        appEnv: { LOG_LEVEL: 'info' },
        startDeadlineMs: 30_000,
        cleanup: (prefix) => stack.cleanUp(prefix),
      },
    );
    stack.keysLeft = null;
    live.add(stack);
    await stack.begin();
    return stack;
  }

  /** Deletes the stack's Redis keys and records how many were left (0 expected). */
  async cleanUp(prefix) {
    try {
      await deletePrefix(prefix);
      this.keysLeft = await countPrefix(prefix);
    } catch (error) {
      this.keysLeft = `unknown (${error.message})`;
    }
    live.delete(this);
  }

  /** The first inference proxy's base URL (options.inferenceProxy). */
  get proxyUrl() {
    return this.proxyUrls[0];
  }

  /** A waker or idle monitor more, as money-day's adaptive policy starts them. */
  startWorker(app) {
    return app === 'waker' ? this.startWaker() : this.startIdleMonitor();
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
