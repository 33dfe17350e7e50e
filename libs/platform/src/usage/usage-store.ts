import type Redis from 'ioredis';
import type { z } from 'zod';
import { MAX_RECORDED_USES, type Boot, type StopMark, type UsageRecord, type Use } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { readStored } from '../redis/stored-json';
import { bootSchema, stopMarkSchema } from './usage-record.schema';

const DAY_MS = 86_400_000;

/** Boots and stops kept per pod: a month of a pod woken a few dozen times a day. */
export const MAX_RECORDED_BOOTS = 2_000;
export const MAX_RECORDED_STOPS = 2_000;

/**
 * Each pod's usage record (uses, boots, stops), one sorted set each scored by time, bounded by retention
 * and a count. A member is its own value (a use is `start:end`), so a re-run tick records nothing twice.
 */
export class UsageStore {
  private readonly retentionMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    retentionDays: number,
  ) {
    this.retentionMs = retentionDays * DAY_MS;
  }

  async recordUse(podName: string, use: Use): Promise<void> {
    const start = Math.round(use.start);
    const end = Math.max(start, Math.round(use.end));
    await this.add(this.keys.usageUses(podName), start, `${start}:${end}`, end, MAX_RECORDED_USES);
  }

  async recordBoot(podName: string, boot: Boot): Promise<void> {
    await this.add(
      this.keys.usageBoots(podName),
      boot.wakeAt,
      JSON.stringify(boot),
      boot.readyAt,
      MAX_RECORDED_BOOTS,
    );
  }

  async recordStop(podName: string, stop: StopMark): Promise<void> {
    await this.add(this.keys.usageStops(podName), stop.at, JSON.stringify(stop), stop.at, MAX_RECORDED_STOPS);
  }

  /** How many uses are recorded: whether there is new use to learn from. */
  async useCount(podName: string): Promise<number> {
    return this.redis.zcard(this.keys.usageUses(podName));
  }

  /** Uses that began at or after `since`: whether a pre-woken pod was used. */
  async usesSince(podName: string, since: number): Promise<number> {
    return this.redis.zcount(this.keys.usageUses(podName), since, '+inf');
  }

  /** The record from `since` on, oldest first; entries that do not parse are skipped. */
  async read(podName: string, since: number): Promise<UsageRecord> {
    const [uses, boots, stops] = await Promise.all([
      this.redis.zrangebyscore(this.keys.usageUses(podName), since, '+inf'),
      this.redis.zrangebyscore(this.keys.usageBoots(podName), since, '+inf'),
      this.redis.zrangebyscore(this.keys.usageStops(podName), since, '+inf'),
    ]);
    return {
      uses: uses.map(parseUse).filter((use): use is Use => use !== null),
      boots: boots.flatMap((member) => readableOf(bootSchema, member)),
      stops: stops.flatMap((member) => readableOf(stopMarkSchema, member)),
    };
  }

  private async add(key: string, score: number, member: string, at: number, keep: number): Promise<void> {
    await this.redis
      .multi()
      .zadd(key, Math.round(score), member)
      .zremrangebyscore(key, '-inf', `(${Math.round(at - this.retentionMs)}`)
      .zremrangebyrank(key, 0, -(keep + 1))
      .pexpire(key, this.retentionMs)
      .exec();
  }
}

// A use is `start:end` text, not JSON: split by hand, as no schema library reads it any shorter.
function parseUse(member: string): Use | null {
  const [start, end] = member.split(':').map(Number);
  return Number.isFinite(start) && Number.isFinite(end) && end >= start ? { start, end } : null;
}

function readableOf<T>(schema: z.ZodType<T>, member: string): T[] {
  const read = readStored(schema, member);
  return read.kind === 'read' ? [read.value] : [];
}
