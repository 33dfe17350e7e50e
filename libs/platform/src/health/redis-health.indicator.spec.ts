import { HealthIndicatorService } from '@nestjs/terminus';
import { connectTestRedis } from '@podwarden/testing';
import type Redis from 'ioredis';
import { RedisHealthIndicator } from './redis-health.indicator';

function pendingTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

/** A probe runs every few seconds: a timer it left behind each time would pile up for the process's life. */
describe('RedisHealthIndicator', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = connectTestRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('answers up on PONG and leaves no timer behind', async () => {
    const indicator = new RedisHealthIndicator(redis, new HealthIndicatorService());
    await redis.ping();
    const before = pendingTimers();
    for (let probe = 0; probe < 5; probe += 1) {
      await expect(indicator.check()).resolves.toEqual({ redis: { status: 'up' } });
    }
    expect(pendingTimers()).toBe(before);
  });
});
