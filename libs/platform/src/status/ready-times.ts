import type Redis from 'ioredis';
import type { ReadySample } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { readStored } from '../redis/stored-json';
import { readySampleSchema } from './ready-sample.schema';

// Enough for a stable median per GPU; older boots say little about today's image and model.
const KEPT_SAMPLES = 100;

/**
 * Past wakes' time-to-ready, one sorted set per pod scored by when the pod became ready. A member is
 * the sample's JSON, so recording the same wake's ready edge twice (a re-run tick) adds nothing.
 */
export class ReadyTimes {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async add(podName: string, sample: ReadySample, readyAt: number): Promise<void> {
    const key = this.keys.readyTimes(podName);
    const member = JSON.stringify({
      attemptId: sample.attemptId,
      gpuId: sample.gpuId,
      readyAfterMs: sample.readyAfterMs,
    });
    await this.redis
      .multi()
      .zadd(key, readyAt, member)
      .zremrangebyrank(key, 0, -(KEPT_SAMPLES + 1))
      .exec();
  }

  /** Newest first; entries that do not parse are skipped. */
  async all(podName: string): Promise<ReadySample[]> {
    const members = await this.redis.zrevrange(this.keys.readyTimes(podName), 0, KEPT_SAMPLES - 1);
    const samples: ReadySample[] = [];
    for (const member of members) {
      const sample = readStored(readySampleSchema, member);
      if (sample.kind === 'read') samples.push(sample.value);
    }
    return samples;
  }
}
