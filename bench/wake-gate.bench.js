'use strict';
// wake-gate: M concurrent POST /api/pods/qwen/start on an empty volume with two
// waker replicas. However many callers and replicas, a wake must make exactly
// one POST /pods; every caller joins the one wake and gets its 200.
const { Stack } = require('./lib/stack');
const { markdownTable } = require('./lib/markdown-table');
const { percentile, fixed } = require('./lib/stats');

const SIZES = [1, 10, 100];
const REPS = Number(process.env.BENCH_WAKE_REPS || 5);
const SPEED = 300;
// The default (A100-like) timings: 45 + 30 + 10 simulated s from create to a
// RUNNING pod with its GPU, which is when the start answers 200.
const SIM_TO_GPU_MS = ((45_000 + 30_000 + 10_000) / SPEED) | 0;

async function run({ log }) {
  const stack = await Stack.start({
    name: 'wake-gate',
    wakers: 2,
    idleMonitors: 0,
    env: { WAKE_POLL_INTERVAL_MS: '100', WAKE_MAX_POLLS: '100', WAKE_REQUEST_WAIT_SECONDS: '20' },
    simEnv: { SIM_SPEED: String(SPEED) },
  });
  try {
    log(
      `gateway and two wakers up (sim speed ${SPEED}: create → RUNNING with GPU takes ~${SIM_TO_GPU_MS} ms real)`,
    );
    // Sizes take turns (1, 10, 100, 1, ...) so a noisy neighbour hits every size alike.
    const rows = SIZES.map((m) => ({ m, reps: [] }));
    for (let rep = 0; rep < REPS; rep++) {
      for (const row of rows) {
        const reset = await stack.simRequest('POST', '/_sim/reset');
        if (reset.status !== 200) throw new Error(`sim reset failed: ${reset.status}`);
        row.reps.push(await wake(stack, row.m));
      }
    }
    for (const { m, reps } of rows)
      log(
        `M=${m}: POST /pods per wake ${reps.map((r) => r.creates).join(' ')}; answers ${reps.map((r) => r.outcomes).join(' | ')}`,
      );
    return { markdown: report(rows) };
  } finally {
    await stack.stop();
    log(`redis keys left under ${stack.prefix}: ${stack.keysLeft}`);
  }
}

async function wake(stack, m) {
  const sent = Date.now();
  const answers = await Promise.all(
    Array.from({ length: m }, () => stack.api('POST', '/api/pods/qwen/start', 'wake')),
  );
  const calls = await stack.simCalls();
  const writes = calls.filter((c) => c.method !== 'GET');
  const creates = writes.filter((c) => c.method === 'POST' && c.path === '/pods');
  const counts = new Map();
  for (const a of answers) {
    const key = `${a.status} ${a.body && a.body.outcome}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return {
    creates: creates.length,
    otherWrites: writes.length - creates.length,
    attemptIds: new Set(answers.map((a) => a.body && a.body.attemptId)).size,
    outcomes: [...counts].map(([key, n]) => `${n}× ${key}`).join(', '),
    all200: answers.every((a) => a.status === 200),
    latencies: answers.map((a) => a.ms),
    toCreateMs: creates.length > 0 ? Date.parse(creates[0].at) - sent : NaN,
  };
}

function report(rows) {
  const p50Of = (row) =>
    percentile(
      row.reps.flatMap((r) => r.latencies),
      50,
    );
  const base = p50Of(rows[0]);
  const table = markdownTable(
    [
      'M (concurrent starts)',
      'wakes',
      '**POST /pods per wake**',
      'other RunPod writes',
      'attempt ids per wake',
      'answers (all wakes)',
      'time to answer p50 ms',
      'p95 ms',
      'max ms',
      '**p50 / p50(M=1)**',
      'first start → POST /pods ms (median)',
    ],
    rows.map((row) => {
      const latencies = row.reps.flatMap((r) => r.latencies);
      const outcomes = new Map();
      for (const r of row.reps)
        for (const part of r.outcomes.split(', ')) {
          const [n, ...rest] = part.split('× ');
          outcomes.set(rest.join('× '), (outcomes.get(rest.join('× ')) || 0) + Number(n));
        }
      const creates = row.reps.map((r) => r.creates);
      return [
        row.m,
        row.reps.length,
        `**${creates.join(', ')}**${creates.every((c) => c === 1) ? '' : ' ⚠ not 1'}`,
        row.reps.map((r) => r.otherWrites).join(', '),
        row.reps.map((r) => r.attemptIds).join(', '),
        [...outcomes].map(([k, n]) => `${n}× ${k}`).join(', '),
        fixed(percentile(latencies, 50), 0),
        fixed(percentile(latencies, 95), 0),
        fixed(Math.max(...latencies), 0),
        `**${fixed(percentile(latencies, 50) / base, 2)}×** (M ×${row.m})`,
        fixed(
          percentile(
            row.reps.map((r) => r.toCreateMs),
            50,
          ),
          0,
        ),
      ];
    }),
  );
  return [
    `Gateway + two waker replicas, simulator at speed ${SPEED} with its default timings (create → RUNNING with GPU ≈ ${SIM_TO_GPU_MS} ms real, the floor of every answer), ` +
      `WAKE_POLL_INTERVAL_MS=100; the simulator is reset to an empty volume before each wake; ${REPS} wakes per M, the sizes taking turns. ` +
      'Every start carries the wake-only token. Time to answer is per request, from the burst being sent to its full body.',
    '',
    table,
  ].join('\n');
}

module.exports = { name: 'wake-gate', title: 'wake-gate: concurrent starts, two wakers, one create', run };
