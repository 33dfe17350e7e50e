-- A pod's reservation is settled into the day's spend at most once: a second settle (another tick, another
-- replica) finds it gone and adds nothing. KEYS: reservations, today's spent. ARGV: pod, micros, TTL.
-- 1 settled, 0 nothing open.
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('INCRBY', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
