/**
 * Lua for a lease held under a key whose value names the holder: only the
 * holder may extend or drop it, checked and done in one step so a lease that
 * lapsed and was taken by someone else is never extended or deleted by the
 * old holder. KEYS[1] the lease key, ARGV[1] the holder id.
 */

/** ARGV[2]: the new lease in ms. 1 when extended, 0 when the lease is not ours. */
export const RENEW_IF_HOLDER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** 1 when released, 0 when the lease is not ours (lapsed, or another holder's). */
export const RELEASE_IF_HOLDER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
