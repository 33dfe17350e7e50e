import Redis from 'ioredis';
import pino from 'pino';
import { parseConfig, type ListedPod } from '@podwarden/policies';
import type { PodList, PodActionResult, RunPodClient } from '@podwarden/runpod-client';
import { IdleStateStore } from '../idle/idle-state-store';
import { ActionLog } from '../records/action-log';
import { RedisKeys } from '../redis/redis-keys';
import { StopService } from './stop-service';

/** A stop RunPod accepted stays a success even when Redis (records, the Down edge) is unavailable. */
describe(StopService.name, () => {
  it('reports the accepted stops and only warns when the idle state cannot be reset', async () => {
    const parsed = parseConfig({ RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1' }, null);
    if (!parsed.ok) throw new Error(parsed.error);
    const config = parsed.config;
    const listed: ListedPod = {
      id: 'p1',
      name: 'podwarden-qwen',
      status: 'RUNNING',
      volumeIds: ['vol-1'],
      costPerHr: 0.49,
      gpuId: 'NVIDIA RTX A6000',
      createdAt: null,
    };
    const calls: string[] = [];
    const client = {
      isConfigured: true,
      listPods: async (): Promise<PodList> => {
        calls.push('list');
        return { kind: 'listed', pods: [listed] };
      },
      stopPod: async (id: string): Promise<PodActionResult> => {
        calls.push(`stop ${id}`);
        return { ok: true, httpStatus: 200, detail: null };
      },
    } as unknown as RunPodClient;
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      {},
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const deadRedis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const keys = new RedisKeys('pw');
    const sut = new StopService(
      config,
      client,
      new ActionLog(deadRedis, keys, logger),
      new IdleStateStore(deadRedis, keys),
      logger,
    );

    try {
      const result = await sut.stopVolume(config.pods[0], 'manual');

      expect(result).toEqual({
        kind: 'stopped',
        ok: true,
        pods: [{ podId: 'p1', ok: true, httpStatus: 200, called: true }],
      });
      expect(calls).toEqual(['list', 'stop p1']);
      expect(lines.map((l) => [l.level, l.msg])).toEqual([
        [30, 'stopped pod p1 (manual)'],
        [50, 'billable action NOT recorded durably; full entry logged here instead'],
        [40, 'idle state not reset after the stop; the next tick will see the pods down'],
      ]);
    } finally {
      deadRedis.disconnect();
    }
  });
});
