'use strict';
// money-day: a scripted day on the simulator in compressed time, billed.
// Wake, chat turns every few minutes for half an hour, a long generation,
// silence, a second wake later. For podwarden the figures are measured: the
// simulator's billing ledger, and the model's readiness sampled PHASES times
// per simulated minute. The baseline, a gauge-only idle policy (stop after
// IDLE_MINUTES of 1 min ticks that read vllm:num_requests_running and
// num_requests_waiting at 0), is not run: the same observation trace (those
// gauges) is replayed through its rule once per tick phase (every PHASES-th
// sample, from each offset: where a tick falls against the user's turns is
// chance), with the day's requests and the boot measured in this run.
const { Stack } = require('./lib/stack');
const { sleep, eventually } = require('./lib/app-process');
const { markdownTable } = require('./lib/markdown-table');
const { fixed } = require('./lib/stats');
const { SPEED, SCALED_ENV } = require('./money.bench');

const MIN_MS = 60_000 / SPEED; // one simulated minute in real ms
const IDLE_MINUTES = Number(SCALED_ENV.IDLE_MINUTES) * SPEED; // production minutes
const TURNS = 10;
const TURN_EVERY_MIN = 3;
const TURN_SIM_MS = 8_000; // a short answer: 8 simulated seconds of generation
const LONG_SIM_MS = 20 * 60_000; // the long generation: 20 simulated minutes
const SECOND_WAKE_MIN = 150;
const SECOND_TURNS = 3;
const DAY_MIN = Number(process.env.BENCH_DAY_MIN || 240);
const PHASES = 10; // samples per simulated minute, so ten tick phases to replay

async function run({ log }) {
  const stack = await Stack.start({
    name: 'money-day',
    wakers: 1,
    idleMonitors: 1,
    env: SCALED_ENV,
    simEnv: { SIM_SPEED: String(SPEED) },
  });
  const day = new Day(stack, log);
  const sampler = day.sample();
  try {
    await day.wake('first wake');
    for (let turn = 0; turn < TURNS; turn++) {
      if (turn > 0) await day.until(day.readyAt + turn * TURN_EVERY_MIN);
      await day.chat(TURN_SIM_MS, `turn ${turn + 1}`);
    }
    await day.until(day.readyAt + TURNS * TURN_EVERY_MIN + TURN_EVERY_MIN);
    await day.chat(LONG_SIM_MS, 'long generation');
    log(`long generation done at ${fixed(day.now(), 1)} sim min; silence until ${SECOND_WAKE_MIN}`);
    await day.until(SECOND_WAKE_MIN);
    await day.wake('second wake');
    const second = day.readyAt;
    for (let turn = 0; turn < SECOND_TURNS; turn++) {
      if (turn > 0) await day.until(second + turn * TURN_EVERY_MIN);
      await day.chat(TURN_SIM_MS, `second session turn ${turn + 1}`);
    }
    await day.until(DAY_MIN);
    day.done = true;
    await sampler;
    const billing = (await stack.simRequest('GET', '/_sim/billing')).body;
    const stops = (await stack.simCalls('?method=POST')).filter(
      (call) => /^\/pods\/[^/]+\/action$/.test(call.path) && call.body && call.body.action === 'stop',
    );
    return { markdown: report(day, billing, stops) };
  } finally {
    day.done = true;
    await sampler.catch(() => undefined);
    await stack.stop();
  }
}

/** The script's clock (simulated minutes since the first wake request) and what it saw. */
class Day {
  constructor(stack, log) {
    this.stack = stack;
    this.log = log;
    this.t0 = Date.now();
    this.podId = null;
    this.readyAt = null;
    this.samples = [];
    this.requests = []; // { from, to } in simulated minutes: the model in use
    this.wakes = []; // { at, readyAt }
    this.done = false;
  }

  now() {
    return (Date.now() - this.t0) / MIN_MS;
  }

  until(minute) {
    return sleep(Math.max(0, this.t0 + minute * MIN_MS - Date.now()));
  }

  proxy(path) {
    return `/proxy/${this.podId}-8000${path}`;
  }

  async wake(label) {
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
    this.wakes.push({ at, readyAt: this.readyAt });
    this.log(
      `${label} at ${fixed(at, 1)} sim min: ${start.body.outcome}, model ready at ${fixed(this.readyAt, 1)}`,
    );
  }

  async chat(simMs, label) {
    const from = this.now();
    const answer = await this.stack.simRequest('POST', this.proxy('/v1/chat/completions'), {
      messages: [{ role: 'user', content: label }],
      sim_duration_ms: simMs,
    });
    if (answer.status !== 200)
      throw new Error(`${label}: answered ${answer.status} at ${fixed(from, 1)} sim min`);
    this.requests.push({ from, to: this.now() });
  }

  /** PHASES times per simulated minute: is the model serving, and what do its gauges read? */
  async sample() {
    for (let i = 0; !this.done; i++) {
      await this.until(i / PHASES);
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

function gauge(text, name) {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.trim().split(/\s+/).pop()) || 0;
  }
  return sum;
}

/**
 * The gauge-only rule on this run's trace. A tick reads the gauges: 0 in
 * flight counts one idle tick, anything else (or a booting model) resets the
 * count; IDLE_MINUTES idle ticks stop the pod. Where its pod would be down
 * when the script sends a request, that request wakes it again: billing
 * resumes at the request, which waits one boot (this run's first boot). A
 * scripted wake wakes it too. Where the real pod was down (podwarden stopped
 * it) but the baseline's is up, nothing reached it: idle. After a re-wake the
 * replay keeps the trace as observed (the later requests are not shifted by
 * the boot the baseline's user waited): an approximation in its favour.
 */
function replayGaugeOnly(day, bootMin, phase) {
  const ticks = day.samples.filter((sample) => sample.index % PHASES === phase);
  const events = [
    ...day.wakes.map((w) => ({ at: w.at, request: false })),
    ...day.requests.map((r) => ({ at: r.from, request: true })),
  ].sort((a, b) => a.at - b.at);
  let up = false;
  let upSince = 0;
  let bootedAt = 0;
  let streak = 0;
  let billed = 0;
  let coldRequests = 0;
  const stops = [];
  let next = 0;
  for (const sample of ticks) {
    for (; next < events.length && events[next].at <= sample.at; next++) {
      if (up) continue;
      up = true;
      upSince = events[next].at;
      bootedAt = upSince + bootMin;
      streak = 0;
      if (events[next].request) coldRequests++;
    }
    if (!up) continue;
    const idle = sample.at >= bootedAt && (sample.serving ? sample.inFlight === 0 : true);
    streak = idle ? streak + 1 : 0;
    if (streak >= IDLE_MINUTES) {
      billed += sample.at - upSince;
      up = false;
      stops.push(sample.at);
    }
  }
  if (up) billed += ticks.at(-1).at - upSince;
  return {
    billed,
    wakes: day.wakes.length + coldRequests,
    coldRequests,
    stops,
    boots: day.wakes.length + coldRequests,
  };
}

function usedMinutes(requests) {
  return requests.reduce((sum, r) => sum + (r.to - r.from), 0);
}

function report(day, billing, stops) {
  const bootMin = day.wakes[0].readyAt - day.wakes[0].at;
  const billedMin = billing.totalSeconds / 60;
  const readyMin = day.samples.filter((s) => s.serving).length / PHASES;
  const used = usedMinutes(day.requests);
  const price = billing.pods.length > 0 ? billing.pods[0].pricePerHour : NaN;
  const usd = (minutes) => `$${fixed((minutes / 60) * price, 4)}`;
  const phases = Array.from({ length: PHASES }, (_, phase) => {
    const base = replayGaugeOnly(day, bootMin, phase);
    return { ...base, ready: base.billed - base.boots * bootMin };
  });
  const range = (values, decimals = 1) => {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return lo === hi
      ? fixed(mean, decimals)
      : `${fixed(mean, decimals)} (${fixed(lo, decimals)}–${fixed(hi, decimals)})`;
  };
  const baseBilled = phases.map((p) => p.billed);
  const meanBilled = baseBilled.reduce((a, b) => a + b, 0) / PHASES;
  const cold = phases.map((p) => p.coldRequests);
  const rows = [
    [
      'podwarden (measured: simulator ledger)',
      fixed(billedMin, 1),
      usd(billedMin),
      fixed(readyMin, 0),
      fixed(used, 1),
      `**${fixed(billedMin / used, 2)}×**`,
      '0',
      stops.length,
    ],
    [
      `gauge-only idle policy (replayed on the same trace; mean (min–max) over ${PHASES} tick phases)`,
      range(baseBilled),
      usd(meanBilled),
      range(
        phases.map((p) => p.ready),
        0,
      ),
      fixed(used, 1),
      `**${range(
        baseBilled.map((b) => b / used),
        2,
      )}×**`,
      range(cold),
      range(phases.map((p) => p.stops.length)),
    ],
  ];
  const interrupted = phases.filter((p) => p.coldRequests > 0).length;
  return [
    `Simulator speed ${SPEED} (1 real s = 1 simulated min), podwarden scaled alike (CHECK_SECONDS=${SCALED_ENV.CHECK_SECONDS}, IDLE_MINUTES=${SCALED_ENV.IDLE_MINUTES}: a 1 min tick and a ${IDLE_MINUTES} min window at production scale); ` +
      `GPU ${price} USD/h. The day (simulated minutes from the first wake request): wake; ${TURNS} chat turns of ${TURN_SIM_MS / 1000} s of generation, ${TURN_EVERY_MIN} min apart, from the model's readiness; ` +
      `a ${LONG_SIM_MS / 60_000} min generation ${TURN_EVERY_MIN} min after the last turn; silence; a second wake at ${SECOND_WAKE_MIN} min and ${SECOND_TURNS} turns; the day ends at ${DAY_MIN} min. ` +
      `Boot (wake request → model ready) measured: ${fixed(bootMin, 1)} min. The pod's /metrics was sampled ${PHASES} times per simulated minute; "ready" counts the sampled time the model was serving, "used" is the sum of the requests' durations. ` +
      `The gauge-only rule ticks once a minute: it is replayed ${PHASES} times, each tick phase reading every ${PHASES}th sample from its own offset.`,
    '',
    markdownTable(
      [
        'policy',
        'billed min',
        'USD',
        'model ready min',
        'model used min',
        'billed / used',
        'requests that met a stopped pod (each waited a boot)',
        'stops',
      ],
      rows,
    ),
    '',
    `- **Billed per minute of use: podwarden ${fixed(billedMin / used, 2)}×, gauge-only ${fixed(meanBilled / used, 2)}× (mean over the phases); gauge-only / podwarden billed: ${fixed(meanBilled / billedMin, 2)}×.**`,
    `- **The gauge-only rule stopped the pod under a user in ${interrupted} of ${PHASES} tick phases**: ${range(cold)} request(s) of the day found it stopped and waited a ${fixed(bootMin, 1)} min boot (podwarden: none; a request to a pod podwarden had stopped would have failed this run). ` +
      `A ${TURN_SIM_MS / 1000} s answer is in flight for ${fixed((TURN_SIM_MS / 60_000) * 100, 0)} % of a 1 min tick, so whether the gauge sees a turn is down to where the tick falls; podwarden reads the work counters, which keep every turn.`,
    `- Gauge-only stops per phase (sim min): ${phases.map((p, i) => `${i}: ${p.stops.map((at) => fixed(at, 0)).join(' ')}`).join('; ')}. podwarden's stops: ${stops.map((s) => `${fixed((Date.parse(s.at) - day.t0) / MIN_MS, 1)}`).join(', ') || 'none'}.`,
  ].join('\n');
}

module.exports = {
  name: 'money-day',
  title: 'money-day: a scripted day, billed against a gauge-only idle policy',
  run,
  replayGaugeOnly,
};
