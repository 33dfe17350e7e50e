'use strict';
// A built app (dist/apps/<app>/main.js) as a real child process: test/support/app-process.ts itself,
// with the benchmarks' defaults (production NODE_ENV, no NODE_OPTIONS unless the bench gives one, logs
// in the temp folder). Every process started is registered, so the runner can stop all of them on an
// error or Ctrl-C.
const { join } = require('node:path');
const { tmpdir } = require('node:os');
const launcher = require('./launcher');

const { AppProcess, sleep, eventually } = launcher['app-process'];
const ROOT = join(__dirname, '..', '..');
const LOG_DIR = join(tmpdir(), 'podwarden-bench-logs');

/** Every AppProcess not yet exited; the runner's last-resort cleanup walks it. */
const running = new Set();

AppProcess.defaults = {
  root: ROOT,
  logDir: LOG_DIR,
  nodeEnv: 'production',
  productionHeap: false,
  track: (_child, app) => {
    running.add(app);
    app.waitForExit().then(() => running.delete(app));
  },
};

/** BENCH_CPU_PROF=<dir> writes a V8 CPU profile of every app but the simulator when it exits. */
function profileArgs(app) {
  const dir = process.env.BENCH_CPU_PROF;
  return dir && app !== 'runpod-sim' ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/** `root`: whose dist/ to run (another checkout's build, to measure a baseline side by side). */
function startApp(app, env, label = app, root = ROOT) {
  return AppProcess.start(app, env, label, profileArgs(app), root);
}

async function stopAllApps() {
  await Promise.all([...running].map((app) => app.stop(5_000)));
}

module.exports = { AppProcess, startApp, profileArgs, ROOT, LOG_DIR, sleep, eventually, stopAllApps };
