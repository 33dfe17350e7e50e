import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TEST_LOG_DIR, eventually } from '../support/app-process';
import { freePort } from '../support/free-port';
import { uniquePrefix } from '../support/test-env';

/**
 * What a new user meets: `npm start` (the built apps, so SKIP_BUILD=1), its
 * banner once every app answers, every command in it run as printed (in
 * order, the exports carried into the commands after them), every address
 * in it answering, and one Ctrl-C to the terminal's process group ending
 * everything with exit 0 and no warning.
 */
describe('npm start, as a new user meets it', () => {
  let launcher: ChildProcess;
  let output = '';
  let exit: Promise<number | null>;

  beforeAll(async () => {
    const [sim, gateway, proxy, waker, idle] = await Promise.all([1, 2, 3, 4, 5].map(() => freePort()));
    mkdirSync(TEST_LOG_DIR, { recursive: true });
    const log = createWriteStream(join(TEST_LOG_DIR, 'npm-start.log'));
    // Its own process group, as a terminal's foreground job: a Ctrl-C reaches npm and the launcher.
    launcher = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        SKIP_BUILD: '1',
        SIM_PORT: String(sim),
        PORT: String(gateway),
        PROXY_PORT: String(proxy),
        WAKER_HEALTH_PORT: String(waker),
        IDLE_HEALTH_PORT: String(idle),
        QUEUE_PREFIX: uniquePrefix('npm-start'),
      },
    });
    for (const stream of [launcher.stdout!, launcher.stderr!])
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        log.write(chunk);
      });
    exit = new Promise((resolve) => launcher.on('exit', (code) => resolve(code)));
    await eventually(async () => (bannerOf(output) ? true : undefined), 240_000, 'the start banner');
  }, 300_000);

  afterAll(async () => {
    // Only when a test failed before the Ctrl-C: the launcher stops every app it started.
    if (launcher.exitCode === null && launcher.signalCode === null && launcher.pid) {
      process.kill(-launcher.pid, 'SIGTERM');
      await exit;
    }
  }, 60_000);

  it('prints the banner last, set apart, with the console, Bull Board and its sign-in, and the CLI', () => {
    const banner = bannerOf(output)!;
    expect(output.trimEnd().endsWith(banner.trimEnd())).toBe(true);
    expect(banner).toMatch(/Console: +http:\/\/127\.0\.0\.1:\d+\//);
    expect(banner).toMatch(/Bull Board: +http:\S+\/admin\/queues +\(sign in: user any, password \S+\)/);
    expect(banner).toContain('export PODWARDEN_TOKEN=');
    expect(banner).toContain('npx podwarden start qwen --wait');
    // Readable lines, not JSON, in npm start.
    expect(output).toMatch(/^gateway +\d\d:\d\d:\d\d INFO /m);
    expect(output).not.toMatch(/^gateway +\{/m);
  });

  it('every address in the banner answers, Bull Board with the sign-in it prints', async () => {
    const banner = bannerOf(output)!;
    const [, password] = /password (\S+)\)/.exec(banner)!;
    const urls = [...banner.matchAll(/^ {2}[A-Za-z ]+: +(http:\/\/\S+)/gm)].map((m) => m[1]);
    expect(urls).toHaveLength(3);
    for (const url of urls) {
      const answer = await fetch(url, {
        headers: { authorization: `Basic ${Buffer.from(`any:${password}`).toString('base64')}` },
      });
      expect([url, answer.status]).toEqual([url, 200]);
    }
  });

  it('every printed command runs as printed and answers without an error', async () => {
    const commands = bannerOf(output)!
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^(curl|npx|export) /.test(line));
    expect(commands.length).toBeGreaterThanOrEqual(9);
    const exports: string[] = [];
    const answers = new Map<string, unknown>();
    for (const command of commands) {
      if (command.startsWith('export ')) {
        exports.push(command);
        continue;
      }
      const run = await bash([...exports, command].join('\n'));
      expect([command, run.status, run.stderr.includes('Warning')]).toEqual([command, 0, false]);
      const body: unknown = JSON.parse(run.stdout);
      expect([command, isProblem(body)]).toEqual([command, false]);
      answers.set(command, body);
    }
    const of = (part: string) =>
      [...answers].find(([command]) => command.includes(part))![1] as Record<string, unknown>;
    expect(['Started', 'Created', 'AlreadyRunning', 'Waiting']).toContain(of('/start').outcome);
    expect(of('chat/completions')).toHaveProperty('choices');
    expect(of('start qwen --wait')).toHaveProperty('readySince');
    expect(of('/stop')).toMatchObject({ ok: true });
  }, 600_000);

  it('one Ctrl-C stops everything: exit 0, no warning, the last line says all stopped', async () => {
    const before = output.length;
    process.kill(-launcher.pid!, 'SIGINT');
    expect(await exit).toBe(0);
    const shutdown = output.slice(before);
    expect(shutdown).not.toMatch(/ (WARN|ERROR|FATAL) |Warning|second signal|exited unexpectedly/);
    expect(shutdown.trimEnd().split('\n').pop()).toMatch(/every app stopped cleanly/);
  }, 120_000);
});

/** A bash script's exit status and output; asynchronous, so the launcher's output keeps being read meanwhile. */
function bash(script: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { cwd: ROOT, timeout: 300_000, env: withoutPodwardenSettings(process.env) },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

/** The banner: from the first rule line after "is up" to the next rule line. */
function bannerOf(text: string): string | null {
  const match = /(─{20,}\npodwarden is up[\s\S]*?\n─{20,}\n)/.exec(text);
  return match ? match[1] : null;
}

function isProblem(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as Record<string, unknown>;
  return typeof record.status === 'number' && record.status >= 400 && 'title' in record;
}

/** A developer's own PODWARDEN_* settings must not decide what the printed commands reach. */
function withoutPodwardenSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('PODWARDEN_')));
}
