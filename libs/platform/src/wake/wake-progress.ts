import type Redis from 'ioredis';
import type { RedisKeys } from '../redis/redis-keys';
import { readStored } from '../redis/stored-json';
import { clearProgressIfAttempt } from './scripts/wake-scripts';
import { wakeProgressSchema } from './wake-progress.schema';

/** The in-flight wake as GET shows it: which attempt, where it is, and when it last moved. */
export interface WakeProgress {
  readonly attemptId: string;
  readonly phase: string;
  readonly message: string;
  readonly updatedAt: string;
}

// A crashed worker's progress must not claim a wake forever; every update re-arms it.
const PROGRESS_TTL_SECONDS = 15 * 60;

export class WakeProgressStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async set(podName: string, progress: WakeProgress): Promise<void> {
    await this.redis.set(
      this.keys.wakeProgress(podName),
      JSON.stringify(progress),
      'EX',
      PROGRESS_TTL_SECONDS,
    );
  }

  /** Null when none, or unreadable: progress only informs GET, which then shows no wake step. */
  async get(podName: string): Promise<WakeProgress | null> {
    const raw = await this.redis.get(this.keys.wakeProgress(podName));
    if (raw === null) return null;
    const read = readStored(wakeProgressSchema, raw);
    return read.kind === 'read' ? read.value : null;
  }

  /** Clears only this attempt's progress, never a newer attempt's. */
  async clear(podName: string, attemptId: string): Promise<void> {
    await clearProgressIfAttempt(this.redis, [this.keys.wakeProgress(podName)], [attemptId]);
  }
}
