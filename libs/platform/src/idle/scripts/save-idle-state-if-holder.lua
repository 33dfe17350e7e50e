-- A pod's idle state is written only by the holder of its lock: a lapsed holder cannot overwrite the
-- state a newer holder saved. KEYS: lock, state. ARGV: holder's token, state JSON. 1 saved, 0 not ours.
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[2], ARGV[2]) return 1 end
return 0
