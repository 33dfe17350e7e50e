import { redisScript } from '../../redis/redis-script';
import acquireIdleLocksLua from './acquire-idle-locks.lua';
import saveIdleStatesIfHolderLua from './save-idle-states-if-holder.lua';

/** Keys: locks. Args: per lock, its holder's token and lease ms. Per lock: 1 taken, 0 held already. */
export const acquireIdleLocks = redisScript<number[]>({
  name: 'acquire-idle-locks',
  numberOfKeys: 'each',
  lua: acquireIdleLocksLua,
});

/** Keys: per pod, lock and state. Args: per pod, holder's token and state JSON. Per pod: 1 saved, 0 not ours. */
export const saveIdleStatesIfHolder = redisScript<number[]>({
  name: 'save-idle-states-if-holder',
  numberOfKeys: 'each',
  lua: saveIdleStatesIfHolderLua,
});
