import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { eventually } from '../../support/app-process';
import { freePort } from '../../support/free-port';

/**
 * A redis-server the chaos spec owns: its own port and data directory, the
 * append-only file fsynced on every write (as production runs BullMQ), so a
 * kill -9 and a restart lose nothing that was acknowledged. Only this
 * process is ever killed, never the shared Redis of the other specs.
 */
export class OwnedRedis {
  private child: ChildProcess | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), 'pw-chaos-redis-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnedRedis> {
    const redis = new OwnedRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    await eventually(
      async () => {
        const probe = new Redis(this.url, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        try {
          await probe.connect();
          return (await probe.ping()) === 'PONG' ? true : undefined;
        } finally {
          probe.disconnect();
        }
      },
      15_000,
      `redis-server on ${this.port}`,
    );
  }

  /** kill -9: no shutdown save, clients see connection resets. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  /** SIGSTOP / SIGCONT: Redis alive but answering nothing, as under a long fork or a VM pause. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    this.resume();
    await this.kill9();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
