import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { eventually } from './app-process';
import { freePort } from './free-port';
import { trackChild } from './tracked-children';

/**
 * A redis-server this test owns, on a free port with its files in a temporary
 * directory: a spec may kill it, fail it over or cluster it without touching
 * the shared Redis other specs use.
 */
export class RedisServer {
  private exited = false;
  private readonly exit: Promise<void>;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly child: ChildProcess,
  ) {
    this.exit = new Promise((resolve) =>
      child.on('exit', () => {
        this.exited = true;
        resolve();
      }),
    );
  }

  /** `args` are extra redis-server options (a cluster node's, a replica's). */
  static async start(args: string[] = [], port?: number): Promise<RedisServer> {
    // A free port can be taken by a parallel spec before redis-server binds it (or its cluster bus port,
    // +10000): a server that exits while starting is tried again on another port, when none was asked for.
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await RedisServer.startOn(args, port ?? (await freePort()));
      } catch (error) {
        if (port !== undefined || attempt >= 5 || !/exited/.test(String(error))) throw error;
      }
    }
  }

  private static async startOn(args: string[], chosen: number): Promise<RedisServer> {
    const dir = mkdtempSync(join(tmpdir(), `podwarden-redis-${chosen}-`));
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(chosen),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        ...args,
      ],
      { stdio: 'ignore' },
    );
    const server = new RedisServer(chosen, dir, trackChild(child));
    await server.untilAnswering();
    return server;
  }

  /** A sentinel process (redis-server --sentinel) with the given config lines. */
  static async sentinel(lines: string[]): Promise<RedisServer> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), `podwarden-sentinel-${port}-`));
    const configPath = join(dir, 'sentinel.conf');
    writeFileSync(configPath, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, ...lines, ''].join('\n'));
    const child = spawn('redis-server', [configPath, '--sentinel'], { stdio: 'ignore' });
    const server = new RedisServer(port, dir, trackChild(child));
    await server.untilAnswering();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !this.exited;
  }

  /** One connection for the spec's own commands; the caller quits it. */
  connect(): Redis {
    return new Redis(this.port, '127.0.0.1', { maxRetriesPerRequest: 1, lazyConnect: false });
  }

  async command(...args: string[]): Promise<unknown> {
    const redis = this.connect();
    try {
      return await redis.call(args[0], ...args.slice(1));
    } finally {
      redis.disconnect();
    }
  }

  /** kill -9: what a crashed Redis host looks like to its clients. */
  async kill(): Promise<void> {
    if (this.exited) return;
    this.child.kill('SIGKILL');
    await this.exit;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private untilAnswering(): Promise<true> {
    return eventually(
      async () => {
        if (this.exited) throw new Error(`redis-server on ${this.port} exited`);
        return (await this.command('PING')) === 'PONG' ? true : undefined;
      },
      15_000,
      `redis-server on ${this.port}`,
    );
  }
}
