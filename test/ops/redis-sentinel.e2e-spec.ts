import { describeFailovers } from './support/failover-scenarios';
import { RedisSentinelGroupUnderTest } from './support/redis-topologies';

/**
 * Redis Sentinel: one primary, one replica and three sentinels, real
 * processes; every app finds the primary through REDIS_SENTINELS and
 * REDIS_SENTINEL_NAME, and follows it through SENTINEL FAILOVER.
 */
describeFailovers(
  'podwarden on Redis Sentinel',
  async () => {
    const group = await RedisSentinelGroupUnderTest.start();
    return {
      env: { REDIS_SENTINELS: group.sentinelAddresses, REDIS_SENTINEL_NAME: group.name },
      failover: () => group.failover(),
      stop: () => group.stop(),
    };
  },
  { cluster: false },
);
