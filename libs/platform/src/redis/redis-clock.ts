import type Redis from 'ioredis';

/**
 * The clock the shared records are written and judged on. Replicas' own
 * clocks may be minutes apart; a time one process writes and another judges
 * (a reservation, a proxy lease) is taken from this clock, never from either.
 */
export interface SharedClock {
  /** Epoch milliseconds. */
  now(): Promise<number>;
}

/** Redis's clock (TIME): the one every replica reaches. */
export class RedisClock implements SharedClock {
  constructor(private readonly redis: Redis) {}

  async now(): Promise<number> {
    const [seconds, micros] = await this.redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }
}
