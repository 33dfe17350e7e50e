'use strict';
// what-if: the checked-in traces (bench/traces) replayed by the built CLI, `podwarden what-if`, which
// runs the idle monitor's own phase machine and rhythm policy in simulated time. For each trace: the
// fixed 15-minute window, the best fixed window in hindsight (of the sweep below, the one that billed
// least while starting at most 5 % more cold than the 15-minute window: the bound the adaptive policy is
// held to), and the adaptive policy with pre-wake. Exact counts, not timings: the same on any machine.
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { markdownTable } = require('./lib/markdown-table');
const { ROOT } = require('./lib/app-process');

const TRACES = ['bursty-agent', 'few-conversations', 'office-hours', 'no-pattern'];
const SWEEP = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 45, 60];
const BASE_ENV = { IDLE_MINUTES: '15', CHECK_SECONDS: '60' };

function whatIf(trace, policy, env) {
  const out = execFileSync(
    process.execPath,
    [
      join(ROOT, 'dist/apps/cli/main.js'),
      'what-if',
      '--trace',
      join(ROOT, 'bench/traces', `${trace}.json`),
      '--policy',
      policy,
    ],
    { env: { PATH: process.env.PATH, ...BASE_ENV, ...env }, encoding: 'utf8' },
  );
  return JSON.parse(out).policies[0];
}

async function run({ log }) {
  if (!existsSync(join(ROOT, 'dist/apps/cli/main.js')))
    throw new Error('the CLI is not built; run npm run build first');
  const sections = [];
  for (const trace of TRACES) {
    const fixed = whatIf(trace, 'fixed', {});
    const adaptive = whatIf(trace, 'adaptive', {});
    const sweep = SWEEP.map((minutes) => ({
      minutes,
      row: whatIf(trace, 'fixed', { IDLE_MINUTES: String(minutes) }),
    }));
    const best = sweep
      .filter(({ row }) => row.coldStarts <= fixed.coldStarts * 1.05)
      .reduce((a, b) => (b.row.billedMinutes < a.row.billedMinutes ? b : a));
    log(
      `${trace}: fixed ${fixed.billedMinutes} min, best fixed ${best.minutes} min window, adaptive ${adaptive.billedMinutes} min`,
    );
    const line = (name, row) => [
      name,
      `${row.windowMinutes.min}–${row.windowMinutes.max} (median ${row.windowMinutes.median})`,
      row.billedMinutes.toFixed(0),
      (row.billedMinutes / fixed.billedMinutes).toFixed(2),
      row.costUsd.toFixed(2),
      row.coldStarts,
      (row.coldStarts / fixed.coldStarts).toFixed(2),
      row.waitMinutes.toFixed(0),
      row.stopsDuringUse,
      row.prewakes,
    ];
    sections.push(
      `**${trace}**\n\n` +
        markdownTable(
          [
            'policy',
            'window min (min–max)',
            'billed min',
            '× fixed',
            'cost $',
            'cold starts',
            '× fixed',
            'waited min',
            'stops in use',
            'pre-wakes',
          ],
          [
            line('fixed, IDLE_MINUTES=15', fixed),
            line(`best fixed in hindsight (IDLE_MINUTES=${best.minutes})`, best.row),
            line('adaptive (pre-wake on)', adaptive),
          ],
        ),
    );
  }
  return { markdown: sections.join('\n\n') };
}

module.exports = {
  name: 'what-if',
  title: 'what-if: the adaptive idle policy on four kinds of traffic',
  run,
};
