import { describeFailovers } from './support/failover-scenarios';
import { RedisClusterUnderTest } from './support/redis-topologies';

/**
 * Redis Cluster: three masters with a replica each, real redis-server
 * processes; every app on REDIS_CLUSTER_NODES, so the prefix is hash-tagged
 * and each failover moves the one slot every podwarden key and queue lives in.
 */
describeFailovers(
  'podwarden on a Redis Cluster',
  async () => {
    const cluster = await RedisClusterUnderTest.start();
    return {
      env: { REDIS_CLUSTER_NODES: cluster.seeds },
      failover: (prefix) => cluster.failoverSlotOf(`{${prefix}}`),
      keysOf: (prefix) => cluster.keysOf(`*${prefix}*`, `{${prefix}}`),
      stop: () => cluster.stop(),
    };
  },
  { cluster: true },
);
