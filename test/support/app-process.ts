import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { trackChild } from './tracked-children';

export const ROOT = resolve(__dirname, '..', '..');
export const TEST_LOG_DIR = join(ROOT, 'test-logs');

/** The Dockerfile's heap ceiling (ENV NODE_OPTIONS): the specs run the apps with production's heap. */
export function productionNodeOptions(): string {
  return /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1] ?? '';
}

/**
 * How every app is spawned: the e2e specs' defaults below; the benchmarks (bench/lib/app-process.js)
 * set their own log folder, NODE_ENV production, no heap ceiling and a tracker of their own.
 */
export interface LaunchDefaults {
  /** Whose dist/ runs unless start() names another; the benchmarks, transpiled elsewhere, set this one. */
  readonly root: string;
  readonly logDir: string;
  readonly nodeEnv: string;
  readonly productionHeap: boolean;
  /** Told of every process started, to kill what a failed run leaves (trackChild for the specs). */
  readonly track: (child: ChildProcess, app: AppProcess) => void;
}

export type AppName = 'gateway' | 'waker' | 'idle-monitor' | 'runpod-sim' | 'inference-proxy';

export interface LogLine {
  readonly raw: string;
  readonly json: Record<string, unknown> | null;
  readonly msg: string;
}

/**
 * A built app (dist/apps/<app>/main.js) running as a real process. Its
 * stdout/stderr are kept in memory for assertions and written to test-logs/
 * so the key-leak grep sees every line.
 */
export class AppProcess {
  readonly lines: LogLine[] = [];
  readonly stderr: string[] = [];
  private exitCode: number | null | undefined = undefined;
  private readonly exited: Promise<number | null>;
  private readonly log: WriteStream;

  static defaults: LaunchDefaults = {
    root: ROOT,
    logDir: TEST_LOG_DIR,
    nodeEnv: 'test',
    productionHeap: true,
    track: (child) => trackChild(child),
  };

  readonly logPath: string;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    mkdirSync(AppProcess.defaults.logDir, { recursive: true });
    this.logPath = join(AppProcess.defaults.logDir, `${name}-${child.pid}.log`);
    this.log = createWriteStream(this.logPath);
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      this.log.write(chunk);
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const raw = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        this.lines.push(parseLine(raw));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.log.write(chunk);
      this.stderr.push(chunk.toString('utf8'));
    });
    this.exited = new Promise((resolveExit) =>
      child.on('exit', (code) => {
        this.exitCode = code;
        this.log.end();
        resolveExit(code);
      }),
    );
  }

  /**
   * `nodeArgs` go before the script (e.g. `--require` of a test preload such as skewed-clock.js);
   * `root` is whose dist/ runs (another checkout's build, a benchmark's baseline).
   */
  static start(
    app: AppName,
    env: Record<string, string>,
    label: string = app,
    nodeArgs: readonly string[] = [],
    root: string = AppProcess.defaults.root,
  ): AppProcess {
    const { nodeEnv, productionHeap, track } = AppProcess.defaults;
    const heap = productionHeap ? { NODE_OPTIONS: productionNodeOptions() } : {};
    const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist', 'apps', app, 'main.js')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: nodeEnv, ...heap, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = new AppProcess(label, child);
    track(child, started);
    return started;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  messages(): string[] {
    return this.lines.map((l) => l.msg);
  }

  /** Resolves with the first log line (past or future) matching the predicate. */
  async waitForLine(
    predicate: (line: LogLine) => boolean,
    timeoutMs: number,
    what = 'log line',
  ): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    let seen = 0;
    for (;;) {
      for (; seen < this.lines.length; seen++) if (predicate(this.lines[seen])) return this.lines[seen];
      if (!this.running)
        throw new Error(
          `${this.name} exited (${this.exitCode}) before ${what}; stderr: ${this.stderr.join('')}`,
        );
      if (Date.now() > deadline) {
        throw new Error(
          `timed out waiting for ${what} from ${this.name}; last lines:\n${this.lines
            .slice(-15)
            .map((l) => l.raw)
            .join('\n')}`,
        );
      }
      await sleep(25);
    }
  }

  waitForMessage(fragment: string, timeoutMs: number): Promise<LogLine> {
    return this.waitForLine((l) => l.msg.includes(fragment), timeoutMs, JSON.stringify(fragment));
  }

  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (!this.running) return this.exitCode ?? null;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** kill -9: no shutdown hooks, no lock release; what a crashed container looks like. */
  async kill9(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGSTOP / SIGCONT: a process that stalls (a long GC, a frozen VM) and later resumes as if nothing happened. */
  pause(): void {
    this.child.kill('SIGSTOP');
  }

  resume(): void {
    this.child.kill('SIGCONT');
  }

  waitForExit(): Promise<number | null> {
    return this.exited;
  }
}

function parseLine(raw: string): LogLine {
  try {
    const json = JSON.parse(raw) as Record<string, unknown>;
    return { raw, json, msg: typeof json.msg === 'string' ? json.msg : '' };
  } catch {
    return { raw, json: null, msg: raw };
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls until the check returns a value other than undefined, or fails after timeoutMs. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(everyMs);
  }
}
