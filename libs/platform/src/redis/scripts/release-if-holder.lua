-- Only the lease's holder drops it: a lapsed lease another has taken is left alone.
-- KEYS[1]: the lease. ARGV[1]: the holder's value. 1 when released, 0 when the lease is not ours.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
