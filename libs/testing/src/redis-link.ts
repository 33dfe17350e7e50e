import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';

/**
 * A TCP relay in front of the real test Redis that a test can cut (every
 * connection dropped, new ones refused) or hold (bytes stop flowing both ways,
 * like a paused server) and restore: Redis faults without touching the
 * shared server or mocking it.
 */
export class RedisLink {
  private state: 'open' | 'cut' | 'held' = 'open';
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(targetUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'): Promise<RedisLink> {
    const url = new URL(targetUrl);
    const server = createServer();
    const link = new RedisLink(server, { host: url.hostname, port: Number(url.port || 6379) });
    server.on('connection', (client) => link.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return link;
  }

  /** The link's own port, for a client that opens its connections itself (a BullMQ queue). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** A client through the link, once ready: it fails fast while the link is cut and reconnects soon after. */
  async connect(): Promise<Redis> {
    const { port } = this.server.address() as AddressInfo;
    const redis = new Redis(port, '127.0.0.1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => 50,
    });
    // Its refusals are the point: the code under test sees them as failed commands.
    redis.on('error', () => undefined);
    await new Promise((resolve) => redis.once('ready', resolve));
    return redis;
  }

  cut(): void {
    this.state = 'cut';
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  hold(): void {
    this.state = 'held';
    for (const { client, upstream } of this.pairs) {
      client.pause();
      upstream.pause();
    }
  }

  restore(): void {
    this.state = 'open';
    for (const { client, upstream } of this.pairs) {
      client.resume();
      upstream.resume();
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.state === 'cut') {
      client.destroy();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    const pair = { client, upstream };
    this.pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    if (this.state === 'held') {
      client.pause();
      upstream.pause();
    }
  }
}
