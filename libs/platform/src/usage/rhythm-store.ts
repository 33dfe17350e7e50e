import type Redis from 'ioredis';
import type { z } from 'zod';
import { utcDay, type IdleWindow, type PodRhythm, type PrewakeSlot } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { readStored } from '../redis/stored-json';
import { prewakeRunSchema, rhythmSnapshotSchema } from './rhythm-snapshot.schema';

/** What the idle monitor learned of a pod and applies: GET, the console and the CLI show it. */
export interface RhythmSnapshot {
  /** When it was learned and how many uses the record held then (rhythmDue's mark). */
  readonly learnedAt: number;
  readonly uses: number;
  readonly rhythm: PodRhythm;
  /** The window the last tick applied: the learned one, or a pre-woken pod's short one. */
  readonly inForce: IdleWindow;
  readonly nextPrewakeAt: number | null;
}

/** A pre-wake the pod is up for: its short window holds until someone uses the pod. */
export interface PrewakeRun {
  readonly at: number;
  readonly slot: PrewakeSlot;
  readonly attemptId: string | null;
  /** Someone used the pod since the pre-wake (counted once as a hit). */
  readonly hit: boolean;
}

const DAY_KEY_TTL_SECONDS = 2 * 86_400;

/** The learned rhythm per pod, the pre-wake a pod is up for, and the per-day pre-wake count. */
export class RhythmStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Null when none was learned, or it is unreadable (see rhythm-snapshot.schema). */
  async snapshot(podName: string): Promise<RhythmSnapshot | null> {
    return storedOrNull(rhythmSnapshotSchema, await this.redis.get(this.keys.rhythm(podName)));
  }

  async saveSnapshot(podName: string, snapshot: RhythmSnapshot): Promise<void> {
    await this.redis.set(this.keys.rhythm(podName), JSON.stringify(snapshot));
  }

  /** Null when no pre-wake is running, or it is unreadable (see rhythm-snapshot.schema). */
  async prewakeRun(podName: string): Promise<PrewakeRun | null> {
    return storedOrNull(prewakeRunSchema, await this.redis.get(this.keys.prewakeRun(podName)));
  }

  async savePrewakeRun(podName: string, run: PrewakeRun): Promise<void> {
    await this.redis.set(this.keys.prewakeRun(podName), JSON.stringify(run));
  }

  async endPrewakeRun(podName: string): Promise<void> {
    await this.redis.del(this.keys.prewakeRun(podName));
  }

  /**
   * Takes one of the day's pre-wakes, atomically across replicas: false when
   * `maxPerDay` were taken already (the count is not given back).
   */
  async takePrewake(podName: string, now: number, maxPerDay: number): Promise<boolean> {
    const key = this.keys.prewakeCount(podName, utcDay(now));
    const [[, taken]] = (await this.redis.multi().incr(key).expire(key, DAY_KEY_TTL_SECONDS).exec()) as [
      [Error | null, number],
      [Error | null, number],
    ];
    return Number(taken) <= maxPerDay;
  }
}

function storedOrNull<T>(schema: z.ZodType<T>, raw: string | null): T | null {
  if (raw === null) return null;
  const read = readStored(schema, raw);
  return read.kind === 'read' ? read.value : null;
}
