'use strict';
// start-overhead: POST /api/pods/qwen/start on a pod already running
// (AlreadyRunning) against the very RunPod calls that start makes, issued
// directly over a keep-alive undici pool as the client does. The difference
// is what the gateway, the queue, the wake gate, the waker and the records
// cost per start. Target: p50 of the start ≤ 15 ms.
const { Agent, request } = require('undici');
const { Stack, VOLUME_ID } = require('./lib/stack');
const { markdownTable } = require('./lib/markdown-table');
const { percentile, fixed } = require('./lib/stats');

const N = Number(process.env.BENCH_START_N || 300);
const WARMUP = 30;
const API_KEY = 'rpa_BENCHKEY_not_a_real_key_0c4f';
const TARGET_P50_MS = 15;

async function run({ log }) {
  const stack = await Stack.start({ name: 'start-overhead', wakers: 1, idleMonitors: 0 });
  const agent = new Agent({ connections: 4, keepAliveTimeout: 30_000 });
  try {
    const seeded = await stack.simRequest('POST', '/_sim/pods', { status: 'RUNNING', volumeId: VOLUME_ID });
    if (seeded.status !== 201) throw new Error(`seed failed: ${seeded.status}`);
    for (let i = 0; i < WARMUP; i++) await expectAlreadyRunning(stack);
    // What one AlreadyRunning start asks RunPod, read from the simulator's log.
    await stack.simRequest('DELETE', '/_sim/calls');
    await expectAlreadyRunning(stack);
    const calls = (await stack.simCalls()).map((c) => ({ method: c.method, path: c.path }));
    log(
      `one AlreadyRunning start makes ${calls.length} RunPod calls: ${calls.map((c) => `${c.method} ${c.path}`).join(', ')}`,
    );

    // Turns alternate (start, direct, start, direct …) so noise hits both alike.
    const startMs = [];
    const directMs = [];
    for (let i = 0; i < N; i++) {
      startMs.push(await expectAlreadyRunning(stack));
      directMs.push(await direct(stack.simUrl, calls, agent));
    }
    const p50 = percentile(startMs, 50);
    log(`start p50 ${fixed(p50)} ms, direct p50 ${fixed(percentile(directMs, 50))} ms`);
    return { markdown: report(calls, startMs, directMs) };
  } finally {
    await agent.close();
    await stack.stop();
  }
}

async function expectAlreadyRunning(stack) {
  const answer = await stack.api('POST', '/api/pods/qwen/start', 'operator');
  if (answer.status !== 200 || answer.body.outcome !== 'AlreadyRunning')
    throw new Error(`start answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  return answer.ms;
}

/** The same calls, in order, as the client makes them: bearer, JSON, keep-alive pool, whole body read. */
async function direct(simUrl, calls, dispatcher) {
  const started = performance.now();
  for (const call of calls) {
    const response = await request(`${simUrl}/v2${call.path}`, {
      method: call.method,
      headers: { authorization: `Bearer ${API_KEY}`, accept: 'application/json' },
      dispatcher,
    });
    JSON.parse(await response.body.text());
  }
  return performance.now() - started;
}

function report(calls, startMs, directMs) {
  const row = (label, values) => [
    label,
    values.length,
    fixed(percentile(values, 50)),
    fixed(percentile(values, 90)),
    fixed(percentile(values, 99)),
    fixed(Math.max(...values)),
  ];
  const p50 = percentile(startMs, 50);
  const overhead = p50 - percentile(directMs, 50);
  return [
    `A gateway and one waker against a simulator holding one RUNNING pod; ${N} sequential starts after ${WARMUP} warm-up starts, ` +
      `each followed by the same RunPod calls made directly (${calls.map((c) => `\`${c.method} ${c.path.replace(/\/pods\/[a-z0-9]+/, '/pods/{id}')}\``).join(', ')}) over a keep-alive undici pool. ` +
      'Client-side time from request to whole body.',
    '',
    markdownTable(
      ['path', 'requests', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
      [
        row('POST …/start (AlreadyRunning) through gateway, queue and waker', startMs),
        row('the same RunPod calls, direct', directMs),
      ],
    ),
    '',
    `- **start p50 ${fixed(p50)} ms against a target of ≤ ${TARGET_P50_MS} ms: ${p50 <= TARGET_P50_MS ? 'met' : 'not met'}.**`,
    `- The queue's overhead (start p50 − direct p50): **${fixed(overhead)} ms**, ${fixed(p50 / percentile(directMs, 50), 1)}× the direct calls.`,
  ].join('\n');
}

module.exports = {
  name: 'start-overhead',
  title: 'start-overhead: POST start on a running pod vs the same RunPod calls direct',
  run,
};
