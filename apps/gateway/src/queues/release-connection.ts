import { once } from 'node:events';
import type Redis from 'ioredis';
import { withinTimeout } from '@podwarden/platform';

/**
 * Lets a BullMQ connection go at shutdown without waiting for Redis: QUIT would queue behind the commands
 * of a client stuck reconnecting, and a forced disconnect never ends it. So reconnecting stops and the
 * next failing attempt ends the client, rejecting what was queued; bounded by `waitMs`.
 */
export async function releaseConnection(client: Promise<unknown>, waitMs: number): Promise<void> {
  // A connection that never came up has no client to hand out; BullMQ drops that one itself.
  const redis = (await withinTimeout(client, waitMs, 'queue client').catch(() => null)) as Redis | null;
  if (redis === null || redis.status === 'ready' || redis.status === 'end') return;
  redis.options.retryStrategy = () => null;
  await withinTimeout(once(redis, 'end'), waitMs, 'connection end').catch(() => undefined);
}
