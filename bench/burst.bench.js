'use strict';
// burst: N concurrent GET /api/pods/qwen right after a podwarden write (a
// keep-alive cleared) invalidated the pod's status snapshot, so every GET of
// the burst must wait for a new RunPod read. The refresh is single-flight (one
// reader takes the lock and reads, the others wait for its snapshot), so
// control-plane calls per burst should stay at one read (one list + one
// observe) while N grows, and latency should grow far slower than N.
const { Stack, VOLUME_ID } = require('./lib/stack');
const { sleep } = require('./lib/app-process');
const { markdownTable } = require('./lib/markdown-table');
const { percentile, mean, fixed } = require('./lib/stats');

const SIZES = [1, 10, 50, 200];
const REPS = Number(process.env.BENCH_BURST_REPS || 10);
const PAUSE_MS = 400; // between bursts, so the previous burst's refresh has settled

async function run({ log }) {
  const stack = await Stack.start({ name: 'burst', wakers: 0, idleMonitors: 0 });
  try {
    const seeded = await stack.simRequest('POST', '/_sim/pods', { status: 'RUNNING', volumeId: VOLUME_ID });
    if (seeded.status !== 201)
      throw new Error(`seed failed: ${seeded.status} ${JSON.stringify(seeded.body)}`);
    log(`gateway up; seeded RUNNING pod ${seeded.body.id}; warming up`);
    await invalidated(stack);
    await burst(stack, 50);
    await sleep(PAUSE_MS);
    // Sizes take turns (1, 10, 50, 200, 1, 10, ...) so a noisy neighbour hits every size alike.
    const rows = SIZES.map((n) => ({ n, latencies: [], calls: [], failures: 0 }));
    for (let rep = 0; rep < REPS; rep++) {
      for (const row of rows) {
        await invalidated(stack);
        await stack.simRequest('DELETE', '/_sim/calls');
        const answers = await burst(stack, row.n);
        await sleep(50);
        row.calls.push((await stack.simCalls()).length);
        for (const a of answers) {
          row.latencies.push(a.ms);
          if (a.status !== 200 || a.body.isRunning !== true) row.failures++;
        }
        await sleep(PAUSE_MS);
      }
    }
    for (const row of rows)
      log(
        `N=${row.n}: calls per burst ${row.calls.join(' ')}; p50 ${fixed(percentile(row.latencies, 50))} ms`,
      );
    return { markdown: report(rows) };
  } finally {
    await stack.stop();
    log(`redis keys left under ${stack.prefix}: ${stack.keysLeft}`);
  }
}

/** A gateway write (clearing the keep-alive) drops the snapshot: the next GET must read RunPod. */
async function invalidated(stack) {
  const cleared = await stack.api('DELETE', '/api/pods/qwen/keepalive', 'operator');
  if (cleared.status !== 200) throw new Error(`keep-alive clear failed: ${cleared.status}`);
}

/** N GETs fired at once; resolves with every answer. */
function burst(stack, n) {
  return Promise.all(Array.from({ length: n }, () => stack.api('GET', '/api/pods/qwen')));
}

function report(rows) {
  const base = percentile(rows[0].latencies, 50);
  const table = markdownTable(
    [
      'N (concurrent GETs)',
      'bursts',
      'RunPod calls per burst (mean; min–max)',
      'without single flight (2 per GET)',
      '**calls / GET**',
      'p50 ms',
      'p95 ms',
      'max ms',
      '**p50 / p50(N=1)**',
      'non-200 or not running',
    ],
    rows.map((r) => {
      const perBurst = mean(r.calls);
      const p50 = percentile(r.latencies, 50);
      return [
        r.n,
        r.calls.length,
        `${fixed(perBurst, 1)}; ${Math.min(...r.calls)}–${Math.max(...r.calls)}`,
        2 * r.n,
        `**${fixed(perBurst / r.n, 3)}**`,
        fixed(p50),
        fixed(percentile(r.latencies, 95)),
        fixed(Math.max(...r.latencies)),
        `**${fixed(p50 / base, 2)}×** (N ×${r.n})`,
        r.failures,
      ];
    }),
  );
  const last = rows[rows.length - 1];
  return [
    `Gateway alone against a simulator holding one RUNNING pod on the volume; ${REPS} bursts per N, ${PAUSE_MS} ms apart, the sizes taking turns, after one warm-up burst of 50. ` +
      'Before each burst a keep-alive clear (a podwarden write) invalidates the status snapshot, so every GET of the burst waits for a new RunPod read: the one the reader holding the refresh lock makes. ' +
      'Latency is measured by the client from request to full body; one list and one observe against the simulator are its floor.',
    '',
    table,
    '',
    `- **Calls per burst at N=${last.n}: ${fixed(mean(last.calls), 1)}** (N=1: ${fixed(mean(rows[0].calls), 1)}); without the single flight it would be ${2 * last.n}.`,
    `- **p50 grew ${fixed(percentile(last.latencies, 50) / base, 2)}× while N grew ${last.n}×.**`,
  ].join('\n');
}

module.exports = { name: 'burst', title: 'burst: concurrent GET /api/pods/qwen', run };
