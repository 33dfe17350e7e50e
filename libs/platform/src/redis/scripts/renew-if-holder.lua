-- Only the lease's holder extends it: a lapsed lease another has taken is left alone.
-- KEYS[1]: the lease. ARGV[1]: the holder's value; ARGV[2]: the new lease in ms.
-- 1 when extended, 0 when the lease is not ours.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
