import { once } from 'node:events';
import type Redis from 'ioredis';
import { withinTimeout } from '@podwarden/platform';

/**
 * Lets one BullMQ connection go at shutdown without waiting for Redis. A
 * client that lost Redis sits in `reconnecting` with its unsent commands
 * queued, and BullMQ's QUIT would queue behind them until Redis came back;
 * its forced disconnect is no better, since it cancels the pending reconnect
 * without ever ending the client. So the client stops reconnecting, and its
 * next (failing) attempt ends it, rejecting what was queued. Bounded by `waitMs`.
 */
export async function releaseConnection(client: Promise<unknown>, waitMs: number): Promise<void> {
  // A connection that never came up has no client to hand out; BullMQ drops that one itself.
  const redis = (await withinTimeout(client, waitMs, 'queue client').catch(() => null)) as Redis | null;
  if (redis === null || redis.status === 'ready' || redis.status === 'end') return;
  redis.options.retryStrategy = () => null;
  await withinTimeout(once(redis, 'end'), waitMs, 'connection end').catch(() => undefined);
}
