import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type Redis from 'ioredis';
import { REDIS } from '../app/app-tokens';
import { withinTimeout } from '../util/within-timeout';

/** Ready means Redis answers PING within a second: every app is useless without it. */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly health: HealthIndicatorService,
  ) {}

  async check(key = 'redis'): Promise<HealthIndicatorResult> {
    const indicator = this.health.check(key);
    try {
      // Shorter than the connection's command bound; withinTimeout clears its timer once PING answers.
      const pong = await withinTimeout(this.redis.ping(), 1000, 'PING');
      return pong === 'PONG' ? indicator.up() : indicator.down({ message: `unexpected reply ${pong}` });
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }
}
