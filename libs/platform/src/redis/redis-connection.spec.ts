import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Cluster } from 'ioredis';
import type Redis from 'ioredis';
import { ReadyTimes } from '../status/ready-times';
import { createRedis, type RedisTarget } from './redis-connection';
import { RedisKeys } from './redis-keys';
import { redisScript } from './redis-script';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function standalone(port: number): RedisTarget {
  const url = `redis://127.0.0.1:${port}`;
  return { url, topology: { kind: 'standalone', url } };
}

const BOUND_MS = 300;
const echo = redisScript<string>({ name: 'echo', numberOfKeys: 1, lua: "return redis.call('GET', KEYS[1])" });

/**
 * The request connection bounds every command itself: a store whose call site wraps
 * nothing still fails within the bound when Redis stops answering (a redis-server
 * this spec owns, frozen with SIGSTOP), never hangs. Workers' connections stay unbounded.
 */
describe('createRedis: the request connection bounds every command', () => {
  let server: ChildProcess;
  let redis: Redis;
  const stores = () => new ReadyTimes(redis, new RedisKeys('bound-spec'));

  beforeAll(async () => {
    const port = await freePort();
    server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    redis = createRedis(standalone(port), 'request', BOUND_MS);
    await eventually(() => redis.ping());
  });

  afterAll(() => {
    server.kill('SIGKILL');
    redis.disconnect();
  });

  it('a store read, a transaction and a script each reject "Command timed out" while Redis is frozen', async () => {
    const sample = { attemptId: 'a1', gpuId: null, readyAfterMs: 1000 };
    await stores().add('pod', sample, 1);
    await expect(stores().all('pod')).resolves.toEqual([sample]);
    await expect(echo(redis, ['bound-spec:none'], [])).resolves.toBeNull();

    server.kill('SIGSTOP');
    try {
      const startedAt = Date.now();
      const outcomes = await Promise.allSettled([
        stores().all('pod'),
        stores().add('pod', sample, 2),
        echo(redis, ['bound-spec:none'], []),
      ]);
      const elapsed = Date.now() - startedAt;
      expect(
        outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'fulfilled')),
      ).toEqual(['Command timed out', 'Command timed out', 'Command timed out']);
      expect(elapsed).toBeGreaterThanOrEqual(BOUND_MS - 20);
      expect(elapsed).toBeLessThan(BOUND_MS + 1000);
    } finally {
      server.kill('SIGCONT');
    }
    await expect(eventually(() => stores().all('pod'))).resolves.toEqual([sample]);
  });

  it('worker connections (BullMQ blocking reads) get no command timeout; a cluster bounds each node', () => {
    const worker = createRedis(standalone(1), 'worker');
    const cluster = createRedis(
      { url: 'redis://x', topology: { kind: 'cluster', nodes: [{ host: '127.0.0.1', port: 1 }], auth } },
      'request',
      BOUND_MS,
    ) as unknown as Cluster;
    try {
      expect(worker.options.commandTimeout).toBeUndefined();
      expect(redis.options.commandTimeout).toBe(BOUND_MS);
      expect(cluster.options.redisOptions?.commandTimeout).toBe(BOUND_MS);
    } finally {
      worker.disconnect();
      cluster.disconnect();
    }
  });
});

describe('a cluster no node of which answers', () => {
  it('bounds a command issued before any node is ready, for requests; a worker connection keeps waiting', async () => {
    const nodes = [{ host: '127.0.0.1', port: 1 }];
    const target = { url: 'redis://x', topology: { kind: 'cluster' as const, nodes, auth } };
    const request = createRedis(target, 'request', BOUND_MS);
    const worker = createRedis(target, 'worker');
    try {
      const startedAt = Date.now();
      const requestRead = request.get('bound-spec:cluster').then(
        () => 'fulfilled',
        (error: Error) => error.message,
      );
      const workerRead = worker.get('bound-spec:cluster').then(
        () => 'fulfilled',
        (error: Error) => error.message,
      );

      expect(await requestRead).toBe('Command timed out');
      expect(Date.now() - startedAt).toBeLessThan(BOUND_MS + 2000);
      // Workers never give up on a command: still pending well after the request's bound.
      const late = await Promise.race([
        workerRead,
        new Promise((r) => setTimeout(() => r('pending'), BOUND_MS)),
      ]);
      expect(late).toBe('pending');
    } finally {
      request.disconnect();
      worker.disconnect();
    }
  });
});

const auth = { username: null, password: null, tls: false };

async function eventually<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
