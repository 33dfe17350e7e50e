import { redisScript } from '../../redis/redis-script';
import saveIdleStateIfHolderLua from './save-idle-state-if-holder.lua';

/** Keys: lock, state. Args: holder's token, state JSON. 1 saved, 0 when the lock is not ours. */
export const saveIdleStateIfHolder = redisScript<number>({
  name: 'save-idle-state-if-holder',
  numberOfKeys: 2,
  lua: saveIdleStateIfHolderLua,
});
