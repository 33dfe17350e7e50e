import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Worker } from 'bullmq';
import Redis from 'ioredis';
import { parseConfig, type PodwardenConfig } from '@podwarden/policies';
import {
  PodwardenMetrics,
  RedisKeys,
  WorkerHostKit,
  WorkerMetrics,
  WorkerState,
  createLogger,
} from '@podwarden/platform';
import { BillingReconcileProcessor } from './billing-reconcile.processor';
import type { BillingReconciler } from './billing-reconciler';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A gentle BullMQ close waits on the blocked fetch, which never answers once
 * Redis is gone: the billing worker must close like the tick worker, forced
 * at once without Redis, and must not take the tick worker's place in readiness.
 */
describe('BillingReconcileProcessor at shutdown', () => {
  const config = ((): PodwardenConfig => {
    const parsed = parseConfig(
      { RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol', SHUTDOWN_GRACE_MS: '3000' },
      null,
    );
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.config;
  })();
  const logger = createLogger('idle-monitor', 'silent');

  it('closes its worker, forced, within the grace after its Redis was killed', async () => {
    const port = await freePort();
    const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const connection = new Redis({ port, maxRetriesPerRequest: null, lazyConnect: true });
    let worker: Worker | undefined;
    try {
      await waitForRedis(port);
      worker = new Worker('billing-spec', async () => undefined, { connection });
      worker.on('error', () => undefined);
      await worker.waitUntilReady();
      const state = new WorkerState(connection, new RedisKeys('spec'), config, false);
      const kit = new WorkerHostKit(
        config,
        logger,
        state,
        new WorkerMetrics(new PodwardenMetrics(), 'idle-monitor', async () => null),
      );
      const processor = new BillingReconcileProcessor({} as BillingReconciler, kit);
      Object.assign(processor, { _worker: worker });
      processor.onApplicationBootstrap();
      expect(state.workerTakingJobs()).toBe(false);

      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));
      const startedAt = Date.now();
      await processor.beforeApplicationShutdown();
      expect(Date.now() - startedAt).toBeLessThan(3000);
      expect(worker.closing).toBeDefined();
      await expect(worker.closing).resolves.toBeUndefined();
    } finally {
      server.kill('SIGKILL');
      if (worker !== undefined) await worker.close(true).catch(() => undefined);
      connection.disconnect();
    }
  });
});

async function waitForRedis(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const up = await probe
      .connect()
      .then(() => probe.ping())
      .then(() => true)
      .catch(() => false);
    probe.disconnect();
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on ${port} never answered`);
}
