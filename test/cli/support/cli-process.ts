import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TEST_LOG_DIR } from '../../support/app-process';

export const CLI_ENTRY = join(ROOT, 'dist', 'apps', 'cli', 'main.js');

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as exactly one JSON document (throws when it is not one). */
  readonly json: Record<string, unknown>;
}

let runs = 0;

/**
 * The built CLI (dist/apps/cli/main.js) as a real process, the way a person or
 * an agent runs it: its own env only, stdout and stderr pipes (never a TTY).
 * Both streams also go to test-logs/ so the key-leak grep sees them.
 */
export class CliProcess {
  private out = '';
  private err = '';
  private readonly log: WriteStream;
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;

  constructor(args: readonly string[], env: Record<string, string>) {
    mkdirSync(TEST_LOG_DIR, { recursive: true });
    this.child = spawn(process.execPath, [CLI_ENTRY, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.log = createWriteStream(join(TEST_LOG_DIR, `cli-${process.pid}-${++runs}.log`));
    this.log.write(`$ podwarden ${args.join(' ')}\n`);
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.out += chunk.toString('utf8');
      this.log.write(chunk);
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.err += chunk.toString('utf8');
      this.log.write(chunk);
    });
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => {
        this.log.end();
        resolve({ code, signal });
      }),
    );
  }

  get stderr(): string {
    return this.err;
  }

  get stdout(): string {
    return this.out;
  }

  interrupt(): void {
    this.child.kill('SIGINT');
  }

  /** Resolves once stderr contains `fragment` (progress is the CLI's only sign of life). */
  async waitForStderr(fragment: string | RegExp, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const seen = () => (typeof fragment === 'string' ? this.err.includes(fragment) : fragment.test(this.err));
    while (!seen()) {
      if (this.child.exitCode !== null)
        throw new Error(`the CLI exited before ${fragment}; stderr:\n${this.err}`);
      if (Date.now() > deadline) throw new Error(`no ${fragment} on the CLI's stderr; stderr:\n${this.err}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async result(timeoutMs = 120_000): Promise<CliResult> {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      const { code, signal } = await this.exited;
      const stdout = this.out;
      return {
        code,
        signal,
        stdout,
        stderr: this.err,
        get json() {
          return JSON.parse(stdout) as Record<string, unknown>;
        },
      };
    } finally {
      clearTimeout(timer);
    }
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
}

/** Runs the CLI to its end. */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new CliProcess(args, env).result();
}

/** The stdout contract: exactly one JSON document, one line when stdout is not a terminal. */
export function expectOneDocument(result: CliResult): void {
  expect(result.stdout.endsWith('\n')).toBe(true);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  expect(() => result.json).not.toThrow();
}
