'use strict';
// idle-tick-1000: one idle tick over 1,000 configured pods (PODS_CONFIG) on
// the simulator, 20 of them running and scraped. Each tick should read the
// account's pod list once whatever the number of pods (exactly one list
// call) and finish within 2 s. Durations are the tick jobs' own
// processedOn → finishedOn; list calls are counted inside each tick's window.
//
// BENCH_BASELINE_ROOT=<another checkout, built> runs that checkout's idle
// monitor at the same time on a stack of its own (same pods, same simulator
// build), so the two columns share the machine's load in one run.
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');
const { Queue } = require('bullmq');
const Redis = require('ioredis');
const { Stack } = require('./lib/stack');
const { eventually } = require('./lib/app-process');
const { REDIS_URL } = require('./lib/redis-prefix');
const { markdownTable } = require('./lib/markdown-table');
const { percentile, fixed } = require('./lib/stats');

const PODS = 1000;
const RUNNING = 20;
const TICKS = Number(process.env.BENCH_TICKS || 6);
const CHECK_SECONDS = 3;
const TARGET_MS = 2000;

async function run({ log }) {
  const dir = mkdtempSync(join(tmpdir(), 'pw-bench-pods-'));
  const config = join(dir, 'pods.json');
  const pods = Array.from({ length: PODS }, (_, i) => ({ name: `pod${i}`, volumeId: `vol-bench-${i}` }));
  writeFileSync(config, JSON.stringify({ pods }));
  const baselineRoot = process.env.BENCH_BASELINE_ROOT;
  const variants = [{ label: 'this checkout', root: undefined }];
  if (baselineRoot) variants.push({ label: `baseline ${commitOf(baselineRoot)}`, root: baselineRoot });
  try {
    const results = await Promise.all(variants.map((variant) => measure(variant, config, log)));
    return { markdown: report(results) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** User + system CPU time of a process so far, in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function commitOf(root) {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return root;
  }
}

async function measure(variant, config, log) {
  const stack = await Stack.start({
    name: variant.root ? 'idle-1000-base' : 'idle-1000',
    root: variant.root,
    gateway: false,
    idleMonitors: 1,
    env: { PODS_CONFIG: config, CHECK_SECONDS: String(CHECK_SECONDS), IDLE_MINUTES: '60' },
  });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('idle-tick', { connection: redis, prefix: stack.prefix });
  try {
    for (let i = 0; i < RUNNING; i++) {
      const seeded = await stack.simRequest('POST', '/_sim/pods', {
        status: 'RUNNING',
        volumeId: `vol-bench-${i * 50}`,
        dataCenterId: 'EU-RO-1',
      });
      if (seeded.status !== 201)
        throw new Error(`seed failed: ${seeded.status} ${JSON.stringify(seeded.body)}`);
    }
    const since = Date.now();
    const pid = stack.idleMonitors[0].pid;
    const cpuBefore = cpuMs(pid);
    await stack.simRequest('DELETE', '/_sim/calls');
    const ticks = await eventually(
      async () => {
        const done = (await queue.getCompleted(0, 100)).filter((job) => job.processedOn > since);
        return done.length >= TICKS ? done : undefined;
      },
      (TICKS + 10) * CHECK_SECONDS * 1000 + 60_000,
      `${TICKS} ticks`,
      500,
    );
    const cpu = cpuMs(pid) - cpuBefore;
    const calls = await stack.simCalls();
    const rows = ticks
      .sort((a, b) => a.processedOn - b.processedOn)
      .slice(0, TICKS)
      .map((job) => {
        const inside = calls.filter((c) => {
          const at = Date.parse(c.at);
          return at >= job.processedOn - 5 && at <= job.finishedOn + 5;
        });
        return {
          ms: job.finishedOn - job.processedOn,
          lists: inside.filter((c) => c.method === 'GET' && c.path === '/pods').length,
          observes: inside.filter((c) => c.method === 'GET' && c.path.startsWith('/pods/')).length,
          other: inside.filter((c) => c.method !== 'GET').length,
        };
      });
    log(`${variant.label} ticks: ${rows.map((r) => `${r.ms} ms/${r.lists} list`).join(', ')}`);
    // Every tick completed since `since` ran inside the CPU window, plus the
    // scheduler's work between them: CPU per tick is an upper bound.
    return { label: variant.label, rows, cpuPerTick: cpu / ticks.length };
  } finally {
    await queue.close();
    redis.disconnect();
    await stack.stop();
  }
}

function report(results) {
  const [mine, base] = results;
  const summary = results.map(({ label, rows, cpuPerTick }) => {
    const ms = rows.map((r) => r.ms);
    return {
      label,
      rows,
      cpuPerTick,
      p50: percentile(ms, 50),
      worst: Math.max(...ms),
      lists: [...new Set(rows.map((r) => r.lists))],
    };
  });
  const lines = [
    `One idle monitor per column, ${PODS} pods in PODS_CONFIG (each on its own volume), ${RUNNING} of them RUNNING and serving vLLM /metrics in the simulator; ` +
      `CHECK_SECONDS=${CHECK_SECONDS}, ${TICKS} consecutive ticks` +
      (base ? `; both columns ran at the same time, each on its own stack and simulator` : '') +
      `. A tick's time is its BullMQ job's processedOn → finishedOn.`,
    '',
    markdownTable(
      ['tick', ...summary.flatMap((s) => [`${s.label}: ms`, 'GET /pods', 'GET /pods/{id}', 'writes'])],
      mine.rows.map((_, i) => [
        i + 1,
        ...summary.flatMap((s) => {
          const r = s.rows[i];
          return r ? [r.ms, r.lists, r.observes, r.other] : ['', '', '', ''];
        }),
      ]),
    ),
    '',
  ];
  for (const s of summary) {
    lines.push(
      `- **${s.label}: tick p50 ${fixed(s.p50, 0)} ms, worst ${fixed(s.worst, 0)} ms against a target of ≤ ${TARGET_MS} ms: ${s.worst <= TARGET_MS ? 'met' : 'not met'}; ` +
        `list calls per tick: ${s.lists.join(', ')}** (target exactly 1: ${s.lists.length === 1 && s.lists[0] === 1 ? 'met' : 'not met'}); ` +
        `the idle monitor's CPU time: **${fixed(s.cpuPerTick, 0)} ms per tick** (user + system from /proc, the scheduler's work between ticks included; less sensitive to the machine's load than the wall time).`,
    );
  }
  if (base) {
    const [a, b] = summary;
    lines.push(
      `- **${b.label} / ${a.label}: tick p50 ${fixed(b.p50 / a.p50, 2)}×, worst ${fixed(b.worst / a.worst, 2)}×, CPU per tick ${fixed(b.cpuPerTick / a.cpuPerTick, 2)}×.**`,
    );
  }
  return lines.join('\n');
}

module.exports = {
  name: 'idle-tick-1000',
  title: 'idle-tick-1000: one idle tick over 1,000 configured pods',
  run,
};
