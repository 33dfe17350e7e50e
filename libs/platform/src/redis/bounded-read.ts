import type { TuningConfig } from '@podwarden/policies';
import { withinTimeout } from '../util/within-timeout';

/**
 * The one place a request path's read bound (REDIS_READ_TIMEOUT_MS) is applied: shorter than the
 * connection's per-command bound (createRedis), and over the whole read, however many commands or
 * queue calls it takes. A read past it rejects: callers answer "unreadable", never "absent".
 */
export function boundedRead<T>(
  config: { readonly tuning: Pick<TuningConfig, 'redisReadTimeoutMs'> },
  read: Promise<T>,
  what: string,
): Promise<T> {
  return withinTimeout(read, config.tuning.redisReadTimeoutMs, what);
}
