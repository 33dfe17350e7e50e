import releaseIfHolderLua from './scripts/release-if-holder.lua';
import releaseEachIfHolderLua from './scripts/release-each-if-holder.lua';
import renewIfHolderLua from './scripts/renew-if-holder.lua';
import { redisScript } from './redis-script';

/**
 * A lease whose value names its holder: only the holder extends or drops it, checked and done in one step,
 * so a lapsed lease taken by another is left alone by the old one. Keys: [lease].
 */

/** Args: [holder, lease ms]. 1 when extended, 0 when the lease is not ours. */
export const renewIfHolder = redisScript<number>({
  name: 'renew-if-holder',
  numberOfKeys: 1,
  lua: renewIfHolderLua,
});

/** Args: [holder]. 1 when released, 0 when the lease is not ours (lapsed, or another holder's). */
export const releaseIfHolder = redisScript<number>({
  name: 'release-if-holder',
  numberOfKeys: 1,
  lua: releaseIfHolderLua,
});

/** Keys: leases. Args: each lease's holder, in order. Per lease: 1 released, 0 not ours. */
export const releaseEachIfHolder = redisScript<number[]>({
  name: 'release-each-if-holder',
  numberOfKeys: 'each',
  lua: releaseEachIfHolderLua,
});
