'use strict';
// A built app (dist/apps/<app>/main.js) as a real child process: the benchmark
// counterpart of test/support/app-process.ts, in plain JavaScript because the
// bench runs without ts-node. Every process started here is registered, so the
// runner can stop all of them on an error or Ctrl-C.
const { spawn } = require('node:child_process');
const { createWriteStream, mkdirSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');

const ROOT = join(__dirname, '..', '..');
const LOG_DIR = join(tmpdir(), 'podwarden-bench-logs');

/** Every AppProcess not yet stopped; the runner's last-resort cleanup walks it. */
const running = new Set();

class AppProcess {
  constructor(label, child) {
    this.label = label;
    this.child = child;
    this.lines = [];
    this.stderr = [];
    this.exitCode = undefined;
    mkdirSync(LOG_DIR, { recursive: true });
    this.logPath = join(LOG_DIR, `${label}-${child.pid}.log`);
    this.log = createWriteStream(this.logPath);
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      this.log.write(chunk);
      buffer += chunk.toString('utf8');
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        this.lines.push(parseLine(buffer.slice(0, newline)));
        buffer = buffer.slice(newline + 1);
      }
    });
    child.stderr.on('data', (chunk) => {
      this.log.write(chunk);
      this.stderr.push(chunk.toString('utf8'));
    });
    this.exited = new Promise((resolve) =>
      child.on('exit', (code) => {
        this.exitCode = code;
        running.delete(this);
        this.log.end();
        resolve(code);
      }),
    );
    running.add(this);
  }

  /** `root`: whose dist/ to run (another checkout's build, to measure a baseline side by side). */
  static start(app, env, label = app, root = ROOT) {
    // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of every app but the simulator when it exits.
    const profile = process.env.BENCH_CPU_PROF && app !== 'runpod-sim';
    const args = profile ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const child = spawn(process.execPath, [...args, join(root, 'dist', 'apps', app, 'main.js')], {
      cwd: root,
      env: { PATH: process.env.PATH || '', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AppProcess(label, child);
  }

  get running() {
    return this.exitCode === undefined;
  }

  /** The first log line (already seen or still to come) whose msg contains the fragment. */
  async waitForMessage(fragment, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    let seen = 0;
    for (;;) {
      for (; seen < this.lines.length; seen++)
        if (this.lines[seen].msg.includes(fragment)) return this.lines[seen];
      if (!this.running)
        throw new Error(
          `${this.label} exited (${this.exitCode}) before "${fragment}": ${this.stderr.join('')}`,
        );
      if (Date.now() > deadline)
        throw new Error(`${this.label}: no "${fragment}" within ${timeoutMs} ms (log: ${this.logPath})`);
      await sleep(25);
    }
  }

  /** SIGTERM, then SIGKILL if the app has not exited after timeoutMs. */
  async stop(timeoutMs = 10_000) {
    if (!this.running) return this.exitCode;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

function parseLine(raw) {
  try {
    const json = JSON.parse(raw);
    return { raw, json, msg: typeof json.msg === 'string' ? json.msg : '' };
  } catch {
    return { raw, json: null, msg: raw };
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls check() until it returns something other than undefined. */
async function eventually(check, timeoutMs, what, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await sleep(everyMs);
  }
}

async function stopAllApps() {
  await Promise.all([...running].map((app) => app.stop(5_000)));
}

module.exports = { AppProcess, ROOT, LOG_DIR, sleep, eventually, stopAllApps };
