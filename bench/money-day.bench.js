'use strict';
// money-day: a scripted day on the simulator in compressed time, billed.
// Wake, chat turns every few minutes for half an hour, a long generation,
// silence, a second wake later. For podwarden the figures are measured: the
// simulator's billing ledger, and the model's readiness sampled PHASES times
// per simulated minute. BENCH_DAY_POLICIES=fixed,adaptive plays the same day
// at the same time on one stack per idle policy; the adaptive stack's usage
// record first gets BENCH_DAY_HISTORY_DAYS earlier days of the same script.
// The baseline, a gauge-only idle policy (stop after IDLE_MINUTES of 1 min
// ticks that read vllm:num_requests_running and num_requests_waiting at 0),
// is not run: the first policy's observation trace (those gauges) is replayed
// through its rule once per tick phase (every PHASES-th sample, from each
// offset: where a tick falls against the user's turns is chance), with the
// day's requests and the boot measured in this run.
const { Stack } = require('./lib/stack');
const { eventually } = require('./lib/app-process');
const { Day, usedMinutes } = require('./lib/scripted-day');
const { gitCommit } = require('./lib/git-commit');
const { markdownTable } = require('./lib/markdown-table');
const { fixed } = require('./lib/stats');
const { replayGaugeOnly } = require('./lib/gauge-only-replay');
const { seedUsageDays } = require('./lib/usage-seed');
const { SPEED, SCALED_ENV } = require('./money.bench');

const MIN_MS = 60_000 / SPEED; // one simulated minute in real ms
const IDLE_MINUTES = Number(SCALED_ENV.IDLE_MINUTES) * SPEED; // production minutes
const TURNS = 10;
const TURN_EVERY_MIN = 3;
const TURN_SIM_MS = 8_000; // a short answer: 8 simulated seconds of generation
const LONG_SIM_MS = 20 * 60_000; // the long generation: 20 simulated minutes
const LONG_AT_MIN = (TURNS + 1) * TURN_EVERY_MIN; // from readiness: two spacings after the last turn began
const SECOND_WAKE_MIN = 150;
const SECOND_TURNS = 3;
const DAY_MIN = Number(process.env.BENCH_DAY_MIN || 240);
const PHASES = 10; // samples per simulated minute, so ten tick phases to replay
const POLICIES = (process.env.BENCH_DAY_POLICIES || 'fixed').split(',').map((p) => p.trim());
const HISTORY_DAYS = Number(process.env.BENCH_DAY_HISTORY_DAYS || 7);
const SEED_BOOT_MIN = 3.2; // the boot earlier runs measured, for the seeded days
const PRICE = 0.49;
// The adaptive policy's settings at the same 1/60 scale: its 2 min floor; no pre-wake, since
// a day compressed into four real minutes has no time of day to learn.
const ADAPTIVE_ENV = { IDLE_POLICY: 'adaptive', IDLE_MIN_MINUTES: String(2 / SPEED), PREWAKE: 'off' };

async function run({ log }) {
  const unknown = POLICIES.filter((p) => p !== 'fixed' && p !== 'adaptive');
  if (unknown.length > 0 || POLICIES.length === 0 || new Set(POLICIES).size !== POLICIES.length)
    throw new Error(`BENCH_DAY_POLICIES: a list of fixed and adaptive, each once (got ${POLICIES})`);
  const stacks = [];
  const days = [];
  try {
    const prepared = await Promise.all(POLICIES.map((policy) => prepare(policy, stacks, log)));
    log(`${POLICIES.join(' and ')} ready; playing the day on each at the same time`);
    for (const { stack, policy, window } of prepared)
      days.push(new Day(stack, log, { policy, window, minMs: MIN_MS, phases: PHASES }));
    const played = await Promise.all(days.map((day) => play(day)));
    return { markdown: report(played, gitCommit()) };
  } finally {
    for (const day of days) day.done = true;
    await Promise.all(stacks.map((s) => s.stop()));
    log(`redis keys left: ${stacks.map((s) => `${s.prefix} ${s.keysLeft}`).join(', ')}`);
  }
}

/** A stack for the policy; an adaptive one learns from seeded earlier days before the day begins. */
async function prepare(policy, stacks, log) {
  const adaptive = policy === 'adaptive';
  const stack = await Stack.start({
    name: `money-day-${policy}`,
    wakers: 1,
    idleMonitors: adaptive ? 0 : 1,
    env: adaptive ? { ...SCALED_ENV, ...ADAPTIVE_ENV } : SCALED_ENV,
    simEnv: { SIM_SPEED: String(SPEED) },
  });
  stacks.push(stack);
  if (!adaptive) return { stack, policy, window: null };
  const seeded = await seedUsageDays({
    prefix: stack.prefix,
    pod: 'qwen',
    day: scriptedDay(),
    days: HISTORY_DAYS,
    now: Date.now(),
    pricePerHour: PRICE,
    gpuId: 'NVIDIA A40',
  });
  log(`adaptive: seeded ${seeded.uses} uses and ${seeded.boots} boots over ${HISTORY_DAYS} earlier days`);
  await stack.startWorker('idle-monitor', 'idle monitor ticking');
  const window = await eventually(
    async () => {
      const status = await stack.api('GET', '/api/pods/qwen');
      const w = status.body && status.body.idleWindow;
      return w && w.basis.startsWith('learned') ? w : undefined;
    },
    60_000,
    'the adaptive window learned from the seeded days',
    200,
  );
  log(
    `adaptive: ${window.minutes} min (${fixed(window.minutes * SPEED, 1)} production min): ${window.basis}`,
  );
  return { stack, policy, window };
}

/** The script's day as the record would hold it, in real ms from the first wake request. */
function scriptedDay() {
  const ms = (min) => min * MIN_MS;
  const first = SEED_BOOT_MIN;
  const second = SECOND_WAKE_MIN + SEED_BOOT_MIN;
  const turn = (at) => ({ start: ms(at), end: ms(at) + TURN_SIM_MS / SPEED });
  const longAt = first + LONG_AT_MIN;
  return {
    boots: [
      { wakeAt: 0, readyAt: ms(first) },
      { wakeAt: ms(SECOND_WAKE_MIN), readyAt: ms(second) },
    ],
    uses: [
      ...Array.from({ length: TURNS }, (_, k) => turn(first + k * TURN_EVERY_MIN)),
      { start: ms(longAt), end: ms(longAt) + LONG_SIM_MS / SPEED },
      ...Array.from({ length: SECOND_TURNS }, (_, k) => turn(second + k * TURN_EVERY_MIN)),
    ],
  };
}

async function play(day) {
  const sampler = day.sample();
  try {
    await day.wake('first wake');
    for (let turn = 0; turn < TURNS; turn++) {
      if (turn > 0) await day.until(day.readyAt + turn * TURN_EVERY_MIN);
      await day.chat(TURN_SIM_MS, `turn ${turn + 1}`);
    }
    await day.until(day.readyAt + LONG_AT_MIN);
    await day.chat(LONG_SIM_MS, 'long generation');
    day.log(
      `${day.policy}: long generation done at ${fixed(day.now(), 1)} sim min; silence until ${SECOND_WAKE_MIN}`,
    );
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
    const billing = (await day.stack.simRequest('GET', '/_sim/billing')).body;
    const stops = (await day.stack.simCalls('?method=POST')).filter(
      (call) => /^\/pods\/[^/]+\/action$/.test(call.path) && call.body && call.body.action === 'stop',
    );
    return { day, billing, stops };
  } finally {
    day.done = true;
    await sampler.catch(() => undefined);
  }
}

/** One measured row: a policy's day as the simulator billed it. */
function measuredRow({ day, billing, stops }) {
  const billedMin = billing.totalSeconds / 60;
  const used = usedMinutes(day.requests);
  const price = billing.pods.length > 0 ? billing.pods[0].pricePerHour : NaN;
  const window =
    day.window === null
      ? `${IDLE_MINUTES} min (fixed)`
      : `${fixed(day.window.minutes * SPEED, 1)} min (adaptive: ${day.window.basis})`;
  return {
    day,
    billedMin,
    used,
    price,
    stopsAt: stops.map((s) => (Date.parse(s.at) - day.t0) / MIN_MS),
    cells: [
      `podwarden, IDLE_POLICY=${day.policy} (measured: simulator ledger)`,
      window,
      fixed(billedMin, 1),
      `$${fixed((billedMin / 60) * price, 4)}`,
      fixed(day.samples.filter((s) => s.serving).length / PHASES, 0),
      fixed(used, 1),
      `**${fixed(billedMin / used, 2)}×**`,
      String(day.coldRequests.length),
      String(stops.length),
    ],
  };
}

function report(played, sha) {
  const measured = played.map(measuredRow);
  const traced = measured.find((m) => m.day.policy === 'fixed') || measured[0];
  const { day, used, price } = traced;
  const bootMin = day.wakes[0].readyAt - day.wakes[0].at;
  const usd = (minutes) => `$${fixed((minutes / 60) * price, 4)}`;
  const phases = Array.from({ length: PHASES }, (_, phase) => {
    const base = replayGaugeOnly(day, bootMin, phase, { phases: PHASES, idleMinutes: IDLE_MINUTES });
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
  const gaugeRow = [
    `gauge-only idle policy (replayed on the ${day.policy} run's trace; mean (min–max) over ${PHASES} tick phases)`,
    `${IDLE_MINUTES} min of gauge ticks`,
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
  ];
  const interrupted = phases.filter((p) => p.coldRequests > 0).length;
  const fixedRun = measured.find((m) => m.day.policy === 'fixed');
  const adaptiveRun = measured.find((m) => m.day.policy === 'adaptive');
  const lines = [
    `Commit ${sha}. Simulator speed ${SPEED} (1 real s = 1 simulated min), podwarden scaled alike (CHECK_SECONDS=${SCALED_ENV.CHECK_SECONDS}, IDLE_MINUTES=${SCALED_ENV.IDLE_MINUTES}: a 1 min tick and a ${IDLE_MINUTES} min window at production scale); ` +
      `GPU ${price} USD/h. The day (simulated minutes from the first wake request): wake; ${TURNS} chat turns of ${TURN_SIM_MS / 1000} s of generation, ${TURN_EVERY_MIN} min apart, from the model's readiness; ` +
      `a ${LONG_SIM_MS / 60_000} min generation ${LONG_AT_MIN - (TURNS - 1) * TURN_EVERY_MIN} min after the last turn began; silence; a second wake at ${SECOND_WAKE_MIN} min and ${SECOND_TURNS} turns; the day ends at ${DAY_MIN} min. ` +
      `Policies played at the same time, one stack each: ${POLICIES.join(', ')}. ` +
      (adaptiveRun
        ? `The adaptive stack (${Object.entries(ADAPTIVE_ENV)
            .map(([k, v]) => `${k}=${k === 'IDLE_MIN_MINUTES' ? fixed(Number(v), 4) : v}`)
            .join(
              ', ',
            )}: the 2 min floor at scale; no pre-wake, a compressed day has no time of day) first had ${HISTORY_DAYS} earlier days of this script in its usage record (a ${SEED_BOOT_MIN} min boot each), and learned its window from them before the day began. `
        : '') +
      `Boot (wake request → model ready) measured: ${fixed(bootMin, 1)} min. The pod's /metrics was sampled ${PHASES} times per simulated minute; "ready" counts the sampled time the model was serving, "used" is the sum of the requests' durations. ` +
      `The gauge-only rule ticks once a minute: it is replayed ${PHASES} times, each tick phase reading every ${PHASES}th sample from its own offset.`,
    '',
    markdownTable(
      [
        'policy',
        'idle window',
        'billed min',
        'USD',
        'model ready min',
        'model used min',
        'billed / used',
        'requests that met a stopped pod (each waited a boot)',
        'stops',
      ],
      [...measured.map((m) => m.cells), gaugeRow],
    ),
    '',
    `- **Billed per minute of use: ${measured.map((m) => `${m.day.policy} ${fixed(m.billedMin / m.used, 2)}×`).join(', ')}, gauge-only ${fixed(meanBilled / used, 2)}× (mean over the phases); gauge-only / ${day.policy} billed: ${fixed(meanBilled / traced.billedMin, 2)}×.**`,
  ];
  if (fixedRun && adaptiveRun) {
    lines.push(
      `- **Adaptive / fixed billed, same run: ${fixed(adaptiveRun.billedMin / fixedRun.billedMin, 2)}×** (${fixed(adaptiveRun.billedMin, 1)} vs ${fixed(fixedRun.billedMin, 1)} min); requests that met a stopped pod: adaptive ${adaptiveRun.day.coldRequests.length}${adaptiveRun.day.coldRequests.length > 0 ? ` (at ${adaptiveRun.day.coldRequests.map((c) => `${fixed(c.at, 1)} min, waited ${fixed(c.waitedMin, 1)}`).join('; ')})` : ''}, fixed ${fixedRun.day.coldRequests.length}.`,
    );
  }
  lines.push(
    `- **The gauge-only rule stopped the pod under a user in ${interrupted} of ${PHASES} tick phases**: ${range(cold)} request(s) of the day found it stopped and waited a ${fixed(bootMin, 1)} min boot. ` +
      `A ${TURN_SIM_MS / 1000} s answer is in flight for ${fixed((TURN_SIM_MS / 60_000) * 100, 0)} % of a 1 min tick, so whether the gauge sees a turn is down to where the tick falls; podwarden reads the work counters, which keep every turn.`,
    `- Gauge-only stops per phase (sim min): ${phases.map((p, i) => `${i}: ${p.stops.map((at) => fixed(at, 0)).join(' ')}`).join('; ')}. ` +
      measured
        .map(
          (m) =>
            `podwarden ${m.day.policy}'s stops: ${m.stopsAt.map((at) => fixed(at, 1)).join(', ') || 'none'}`,
        )
        .join('; ') +
      '.',
  );
  return lines.join('\n');
}

module.exports = {
  name: 'money-day',
  title: 'money-day: a scripted day, billed against a gauge-only idle policy',
  run,
};
