import { redisScript } from '../../redis/redis-script';
import checkFenceLua from './check-fence.lua';
import claimGateLua from './claim-gate.lua';
import clearProgressIfAttemptLua from './clear-progress-if-attempt.lua';
import stopWakesLua from './stop-wakes.lua';

/** Keys: gate, fence counter, attempt's first token. Args: attempt, lease ms, first-token TTL s. */
export const claimGate = redisScript<[number, string, string?]>({
  name: 'claim-gate',
  numberOfKeys: 3,
  lua: claimGateLua,
});

/** Keys: gate, fence counter, stop mark. Args: stop mark TTL s. The stop's token. */
export const stopWakes = redisScript<number>({ name: 'stop-wakes', numberOfKeys: 3, lua: stopWakesLua });

/** Keys: gate, stop mark. Args: the run's gate value, its first token. 1 held, 2 stopped, 0 lost. */
export const checkFence = redisScript<number>({ name: 'check-fence', numberOfKeys: 2, lua: checkFenceLua });

/** Keys: progress. Args: attempt id. 1 cleared, 0 absent or another attempt's. */
export const clearProgressIfAttempt = redisScript<number>({
  name: 'clear-progress-if-attempt',
  numberOfKeys: 1,
  lua: clearProgressIfAttemptLua,
});
