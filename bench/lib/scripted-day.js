'use strict';
// money-day's scripted user: a clock in simulated minutes, wakes and chat
// turns against one stack, and the pod's /metrics sampled as it goes.
const { sleep, eventually } = require('./app-process');
const { fixed } = require('./stats');
const { gauge } = require('./gauge-only-replay');

/** The script's clock (simulated minutes since the first wake request) and what it saw. */
class Day {
  constructor(stack, log, { policy, window, minMs, phases }) {
    this.minMs = minMs; // one simulated minute in real ms
    this.phases = phases; // samples per simulated minute
    this.stack = stack;
    this.log = log;
    this.policy = policy;
    this.window = window; // the adaptive window GET showed before the day; null for fixed
    this.t0 = Date.now();
    this.podId = null;
    this.readyAt = null;
    this.samples = [];
    this.requests = []; // { from, to } in simulated minutes: the model in use
    this.wakes = []; // the script's wakes: { at, readyAt }
    this.coldRequests = []; // requests that met a pod podwarden had stopped: { at, waitedMin }
    this.done = false;
  }

  now() {
    return (Date.now() - this.t0) / this.minMs;
  }

  until(minute) {
    return sleep(Math.max(0, this.t0 + minute * this.minMs - Date.now()));
  }

  proxy(path) {
    return `/proxy/${this.podId}-8000${path}`;
  }

  async wake(label, scripted = true) {
    const at = this.now();
    const start = await this.stack.api('POST', '/api/pods/qwen/start', 'wake');
    if (start.status !== 200) throw new Error(`${label}: start answered ${start.status}`);
    this.podId = start.body.podId;
    await eventually(
      async () =>
        (await this.stack.simRequest('GET', this.proxy('/health'))).status === 200 ? true : undefined,
      60_000,
      `${label}: model ready`,
    );
    this.readyAt = this.now();
    if (scripted) this.wakes.push({ at, readyAt: this.readyAt });
    this.log(
      `${this.policy}: ${label} at ${fixed(at, 1)} sim min: ${start.body.outcome}, model ready at ${fixed(this.readyAt, 1)}`,
    );
  }

  /**
   * One request to the pod. One that meets a pod podwarden stopped wakes it, as the inference
   * proxy would, and is sent again once the model is ready: that user waited a boot.
   */
  async chat(simMs, label) {
    const asked = this.now();
    for (;;) {
      const from = this.now();
      const answer = await this.stack
        .simRequest('POST', this.proxy('/v1/chat/completions'), {
          messages: [{ role: 'user', content: label }],
          sim_duration_ms: simMs,
        })
        .catch((error) => ({ status: 0, body: error.message }));
      if (answer.status === 200) {
        this.requests.push({ from, to: this.now() });
        if (from > asked) this.coldRequests.push({ at: asked, waitedMin: from - asked });
        return;
      }
      const status = await this.stack.api('GET', '/api/pods/qwen');
      if (status.body.readySince || from > asked)
        throw new Error(`${label}: answered ${answer.status} at ${fixed(from, 1)} sim min`);
      this.log(`${this.policy}: ${label} at ${fixed(from, 1)} sim min met a stopped pod; waking it`);
      await this.wake(`${label}: cold start`, false);
    }
  }

  /** `phases` times per simulated minute: is the model serving, and what do its gauges read? */
  async sample() {
    for (let i = 0; !this.done; i++) {
      await this.until(i / this.phases);
      if (this.done) return;
      const at = this.now();
      let serving = false;
      let inFlight = 0;
      if (this.podId !== null) {
        const metrics = await this.stack.simRequest('GET', this.proxy('/metrics')).catch(() => null);
        if (metrics && metrics.status === 200 && typeof metrics.body === 'string') {
          serving = true;
          inFlight =
            gauge(metrics.body, 'vllm:num_requests_running') +
            gauge(metrics.body, 'vllm:num_requests_waiting');
        }
      }
      this.samples.push({ index: i, at, serving, inFlight });
    }
  }
}

function usedMinutes(requests) {
  return requests.reduce((sum, r) => sum + (r.to - r.from), 0);
}

module.exports = { Day, usedMinutes };
