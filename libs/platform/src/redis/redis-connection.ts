import type { ConnectionOptions } from 'bullmq';
import Redis, { Cluster, type ClusterOptions, type Command, type RedisOptions } from 'ioredis';
import type { PodwardenConfig, RedisAuth, RedisTopology } from '@podwarden/policies';
import { isShuttingDown } from '../app/shutdown-state';

/** Capped back-off while running; none once shutting down (see shutdown-state). */
export function reconnectDelay(times: number): number | null {
  return isShuttingDown() ? null : Math.min(times * 200, 2000);
}

/**
 * What every connection to Redis shares, whoever opens it (our stores, or
 * BullMQ's queues and workers): a bounded connect and a capped reconnect
 * back-off. REDIS_URL has already been checked by the config policy.
 */
export const REDIS_CONNECTION_OPTIONS = {
  enableReadyCheck: true,
  connectTimeout: 5000,
  retryStrategy: reconnectDelay,
} as const satisfies RedisOptions;

/**
 * Which Redis to reach: pass `config.redis`, never the URL alone (the URL's
 * host means nothing on Sentinel or Cluster).
 */
export type RedisTarget = Pick<PodwardenConfig['redis'], 'url' | 'topology'>;

export type RedisPurpose = 'worker' | 'request';

/**
 * One connection, any topology (a cluster is typed `Redis`: stores use shared commands, one hash tag each).
 * Workers never give up on a command (a blip must not fail them); request paths retry twice, then error.
 * Only requests auto-pipeline: a worker's blocking read would hold the batch up; a cluster's: docs/redis.md.
 */
export function createRedis(target: RedisTarget, purpose: 'worker'): Redis;
/** `commandTimeoutMs` bounds every command, so a store cannot forget it (a worker's blocking reads must not get one). */
export function createRedis(target: RedisTarget, purpose: 'request', commandTimeoutMs: number): Redis;
export function createRedis(target: RedisTarget, purpose: RedisPurpose, commandTimeoutMs?: number): Redis {
  const topology = target.topology;
  const maxRetriesPerRequest = purpose === 'worker' ? null : 2;
  const enableAutoPipelining = purpose === 'request';
  const bound = purpose === 'request' ? { commandTimeout: commandTimeoutMs } : {};
  const redis =
    topology.kind === 'cluster'
      ? (new BoundedCluster(
          [...topology.nodes],
          { ...clusterOptions(topology.auth, maxRetriesPerRequest, bound), enableAutoPipelining: false },
          commandTimeoutMs,
        ) as unknown as Redis)
      : topology.kind === 'sentinel'
        ? new Redis({ ...sentinelOptions(topology), ...bound, maxRetriesPerRequest, enableAutoPipelining })
        : new Redis(topology.url, {
            ...REDIS_CONNECTION_OPTIONS,
            ...bound,
            maxRetriesPerRequest,
            enableAutoPipelining,
            lazyConnect: false,
          });
  // Each command reports its own failure; an unheard 'error' event would only print a stack trace.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * A cluster whose commands are bounded from the moment they are issued: the nodes' commandTimeout starts
 * only when a command reaches a node, so one queued while no node is ready would otherwise wait forever.
 */
class BoundedCluster extends Cluster {
  constructor(
    nodes: ConstructorParameters<typeof Cluster>[0],
    options: ClusterOptions,
    private readonly commandTimeoutMs: number | undefined,
  ) {
    super(nodes, options);
  }

  override sendCommand(...args: Parameters<Cluster['sendCommand']>): unknown {
    const [command] = args as [Command];
    // Idempotent: the node's own timer, set later, keeps this first one.
    if (this.commandTimeoutMs !== undefined) command.setTimeout(this.commandTimeoutMs);
    return super.sendCommand(...args);
  }
}

/**
 * BullMQ's `connection`: options it opens its own connections from, except
 * on a cluster, where BullMQ needs a Cluster client (it duplicates it for the
 * workers' blocking connections). That client lives as long as the process.
 */
export function bullConnection(target: RedisTarget): ConnectionOptions {
  const topology = target.topology;
  if (topology.kind === 'cluster')
    return new Cluster([...topology.nodes], clusterOptions(topology.auth, null));
  if (topology.kind === 'sentinel') return sentinelOptions(topology) as ConnectionOptions;
  return { url: topology.url, ...REDIS_CONNECTION_OPTIONS };
}

/**
 * Sentinel: the sentinels name the primary; after a failover the client asks
 * them again (failoverDetector follows the switch at once), and a write that
 * reached the demoted primary (READONLY) reconnects and is resent.
 */
function sentinelOptions(topology: Extract<RedisTopology, { kind: 'sentinel' }>): RedisOptions {
  return {
    ...REDIS_CONNECTION_OPTIONS,
    ...authOptions(topology.auth),
    sentinels: topology.sentinels.map(({ host, port }) => ({ host, port })),
    name: topology.name,
    db: topology.db,
    sentinelRetryStrategy: reconnectDelay,
    failoverDetector: true,
    reconnectOnError: (error: Error) => (error.message.startsWith('READONLY') ? 2 : false),
  };
}

function clusterOptions(
  auth: RedisAuth,
  maxRetriesPerRequest: number | null,
  bound: Pick<RedisOptions, 'commandTimeout'> = {},
): ClusterOptions {
  return {
    clusterRetryStrategy: reconnectDelay,
    enableReadyCheck: true,
    // A failover moves slots: follow MOVED/TRYAGAIN/CLUSTERDOWN for a while rather than fail at once.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    retryDelayOnTryAgain: 200,
    maxRedirections: 32,
    slotsRefreshTimeout: 2000,
    redisOptions: {
      connectTimeout: REDIS_CONNECTION_OPTIONS.connectTimeout,
      maxRetriesPerRequest,
      ...bound,
      ...authOptions(auth),
    },
  };
}

function authOptions(auth: RedisAuth): RedisOptions {
  return {
    ...(auth.username === null ? {} : { username: auth.username }),
    ...(auth.password === null ? {} : { password: auth.password }),
    ...(auth.tls ? { tls: {} } : {}),
  };
}
