'use strict';
// money: what one wake-and-forget session bills, with and without the idle
// monitor, measured by the simulator's billing ledger.
//
// The run is a 1/60 scale model of production: the simulator runs 60x faster
// than the wall clock (one real second is one simulated minute) and every
// podwarden timing is divided by 60 too (CHECK_SECONDS 60 -> 1, IDLE_MINUTES
// 15 -> 0.25, boot grace 20 -> 1/3, cap 360 -> 6). The ledger bills simulated
// seconds, so its figures read directly as production seconds of the same
// session under the default configuration.
const { Stack } = require('./lib/stack');
const { sleep, eventually } = require('./lib/app-process');
const { markdownTable } = require('./lib/markdown-table');
const { fixed } = require('./lib/stats');

const SPEED = 60;
const WINDOW_S = Number(process.env.BENCH_MONEY_WINDOW_S || 60); // real seconds = simulated minutes
const TURNS = 4;
const TURN_GAP_MS = 2_000; // 2 simulated minutes of reading between turns
const TURN_SIM_MS = 30_000; // each answer takes 30 simulated seconds to generate

const SCALED_ENV = {
  CHECK_SECONDS: '1',
  IDLE_MINUTES: '0.25',
  RUNPOD_BOOT_GRACE_MINUTES: String(20 / SPEED),
  MAX_RUNTIME_MINUTES: String(360 / SPEED),
  WAKE_POLL_INTERVAL_MS: '200',
  WAKE_REQUEST_WAIT_SECONDS: '20',
};

async function run({ log }) {
  const stacks = [];
  try {
    log(`starting two stacks (sim speed ${SPEED}; one with an idle monitor, one without)`);
    const [monitored, unmonitored] = await Promise.all([
      Stack.start({
        name: 'money-idle',
        wakers: 1,
        idleMonitors: 1,
        env: SCALED_ENV,
        simEnv: { SIM_SPEED: String(SPEED) },
      }),
      Stack.start({
        name: 'money-none',
        wakers: 1,
        idleMonitors: 0,
        env: SCALED_ENV,
        simEnv: { SIM_SPEED: String(SPEED) },
      }),
    ]);
    stacks.push(monitored, unmonitored);
    log(`both stacks up; running the same ${WINDOW_S} s session on each (= ${WINDOW_S} simulated minutes)`);
    const [a, b] = await Promise.all([
      session(monitored, log, 'with monitor'),
      session(unmonitored, log, 'no monitor'),
    ]);
    return { markdown: report(a, b) };
  } finally {
    await Promise.all(stacks.map((s) => s.stop()));
    log(`redis keys left: ${stacks.map((s) => `${s.prefix} ${s.keysLeft}`).join(', ')}`);
  }
}

/** Wake through the gateway, chat a little, walk away; read the ledger when the window ends. */
async function session(stack, log, label) {
  const t0 = Date.now();
  const start = await stack.api('POST', '/api/pods/qwen/start', 'wake');
  if (start.status !== 200)
    throw new Error(`${label}: start answered ${start.status} ${JSON.stringify(start.body)}`);
  const podId = start.body.podId;
  const proxy = `/proxy/${podId}-8000`;
  await eventually(
    async () => ((await stack.simRequest('GET', `${proxy}/health`)).status === 200 ? true : undefined),
    30_000,
    `${label}: model ready`,
  );
  const readyAt = Date.now();
  log(
    `${label}: start ${start.body.outcome} in ${fixed(start.ms, 0)} ms, model ready ${fixed((readyAt - t0) / 1000, 2)} s after the wake`,
  );
  let lastChatEnd = readyAt;
  for (let turn = 0; turn < TURNS; turn++) {
    if (turn > 0) await sleep(TURN_GAP_MS);
    const chat = await stack.simRequest('POST', `${proxy}/v1/chat/completions`, {
      messages: [{ role: 'user', content: `turn ${turn + 1}: summarise the incident report` }],
      sim_duration_ms: TURN_SIM_MS,
    });
    if (chat.status !== 200) throw new Error(`${label}: chat turn ${turn + 1} answered ${chat.status}`);
    lastChatEnd = Date.now();
  }
  log(`${label}: ${TURNS} chat turns done; walking away`);
  await sleep(Math.max(0, t0 + WINDOW_S * 1000 - Date.now()));
  const billing = (await stack.simRequest('GET', '/_sim/billing')).body;
  const stops = (await stack.simCalls('?method=POST')).filter(
    (call) => call.path === `/pods/${podId}/action` && call.body && call.body.action === 'stop',
  );
  const history = (await stack.api('GET', '/api/pods/qwen/history?limit=20')).body;
  const stopRecord = (history.actions || []).find((a) => a.action === 'Stop');
  const stopAt = stops.length > 0 ? Date.parse(stops[0].at) : null;
  return {
    label,
    podId,
    t0,
    readyS: (readyAt - t0) / 1000,
    lastChatEndS: (lastChatEnd - t0) / 1000,
    stopS: stopAt === null ? null : (stopAt - t0) / 1000,
    stopTrigger: stopRecord ? stopRecord.trigger : null,
    billedSeconds: billing.totalSeconds,
    usd: billing.totalUsd,
    pricePerHour: billing.pods.length > 0 ? billing.pods[0].pricePerHour : NaN,
    open: billing.pods.some((p) => p.open),
  };
}

function report(a, b) {
  const simMin = (realS) => (realS === null ? 'never' : fixed((realS * SPEED) / 60, 1));
  const rows = [a, b].map((r) => [
    r.label,
    fixed(r.billedSeconds, 0),
    fixed(r.billedSeconds / 60, 1),
    `$${fixed(r.usd, 4)}`,
    simMin(r.readyS),
    simMin(r.lastChatEndS),
    r.stopS === null ? `not stopped (still billing: ${r.open})` : `${simMin(r.stopS)} (${r.stopTrigger})`,
    r.stopS === null
      ? '—'
      : `${fixed(r.stopS - r.lastChatEndS, 2)} s = ${simMin(r.stopS - r.lastChatEndS)} sim min`,
  ]);
  const ratio = b.billedSeconds / a.billedSeconds;
  const saved = b.usd - a.usd;
  const idleWindowMin = 0.25 * SPEED; // IDLE_MINUTES scaled back to production minutes
  const forgottenHours = 8;
  const forgottenUsd = forgottenHours * a.pricePerHour;
  const lines = [
    `Simulator speed ${SPEED} (1 real s = 1 simulated min); observation window ${WINDOW_S} real s = ${fixed((WINDOW_S * SPEED) / 3600, 2)} simulated h from the wake request; ` +
      `GPU ${a.pricePerHour} USD/h; ${TURNS} chat turns of ${TURN_SIM_MS / 1000} simulated s, ${(TURN_GAP_MS * SPEED) / 60_000} simulated min apart; ` +
      `monitor: CHECK_SECONDS=1, IDLE_MINUTES=0.25 (= 60 s and 15 min at production scale).`,
    '',
    markdownTable(
      [
        'variant',
        'billed (sim s)',
        'billed (sim min)',
        'USD',
        'model ready (sim min after wake)',
        'last chat ended (sim min)',
        'pod stopped (sim min)',
        'last chat → stop',
      ],
      rows,
    ),
    '',
    `- **Ratio without / with monitor: ${fixed(ratio, 2)}×** over this ${fixed((WINDOW_S * SPEED) / 60, 0)}-minute window; the monitor saved **$${fixed(saved, 4)}** (${fixed((saved / b.usd) * 100, 0)} % of the unmonitored bill).`,
    `- Last chat → stop: ${a.stopS === null ? 'no stop seen' : `**${fixed(((a.stopS - a.lastChatEndS) * SPEED) / 60, 2)} simulated min**`} against an idle window of ${idleWindowMin} min (expected: the window plus up to one tick, since the tick after the last turn still reads Busy).`,
    `- Extrapolation (not measured): the monitored bill is fixed once the pod stops, the unmonitored one grows by ${a.pricePerHour} USD per hour; a pod forgotten for ${forgottenHours} h costs $${fixed(forgottenUsd, 2)}, **${fixed((forgottenHours * 3600) / a.billedSeconds, 1)}×** the monitored session.`,
  ];
  return lines.join('\n');
}

module.exports = {
  name: 'money',
  title: 'money: one wake-and-forget session, billed',
  run,
  // The scale model, shared with money-day.
  SPEED,
  SCALED_ENV,
};
