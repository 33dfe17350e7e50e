import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import Redis from 'ioredis';
import { testConfig } from '@podwarden/testing';
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

/**
 * A gentle BullMQ close waits on the blocked fetch, which never answers once
 * Redis is gone: the billing worker must close like the tick worker, forced
 * at once without Redis, and must not take the tick worker's place in readiness.
 */
describe('BillingReconcileProcessor at shutdown', () => {
  const config = testConfig({ SHUTDOWN_GRACE_MS: '3000' });
  const logger = createLogger('idle-monitor', 'silent');

  // A unix socket of its own, not a TCP port: no other spec's server can ever answer in its place.
  it('closes its worker, forced, within the grace after its Redis was killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podwarden-billing-spec-'));
    const socket = join(dir, 'redis.sock');
    const server = spawn(
      'redis-server',
      ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const connection = new Redis({ path: socket, maxRetriesPerRequest: null, lazyConnect: true });
    let worker: Worker | undefined;
    try {
      await waitForRedis(socket);
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
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

async function waitForRedis(path: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const probe = new Redis({ path, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const up = await probe
      .connect()
      .then(() => probe.ping())
      .then(() => true)
      .catch(() => false);
    probe.disconnect();
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on ${path} never answered`);
}
