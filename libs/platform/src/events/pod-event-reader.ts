import type Redis from 'ioredis';
import type { RedisKeys } from '../redis/redis-keys';
import { eventOfEntry, type PodEvent } from './pod-event';

type StreamEntries = [id: string, fields: string[]][];

/** Reads retained events: the replay a reconnecting client asks for with Last-Event-ID. */
export class PodEventReader {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Every retained event strictly after `afterId`, oldest first, at most `count`. */
  async after(podName: string, afterId: string, count: number): Promise<PodEvent[]> {
    const rows = (await this.redis.xrange(
      this.keys.events(podName),
      `(${afterId}`,
      '+',
      'COUNT',
      count,
    )) as StreamEntries;
    return eventsOf(rows);
  }

  /** The newest retained event's id, or null for an empty stream. */
  async lastId(podName: string): Promise<string | null> {
    const rows = (await this.redis.xrevrange(
      this.keys.events(podName),
      '+',
      '-',
      'COUNT',
      1,
    )) as StreamEntries;
    return rows.length > 0 ? rows[0][0] : null;
  }
}

export function eventsOf(rows: StreamEntries): PodEvent[] {
  return rows.flatMap(([id, fields]) => {
    const event = eventOfEntry(id, fields);
    return event === null ? [] : [event];
  });
}
