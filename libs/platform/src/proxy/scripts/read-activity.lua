-- Lapsed leases (a replica that died mid-request) are dropped before counting, in the same step, so the
-- count never includes a dead request. KEYS: in-flight sorted set, last ended. ARGV: now (shared clock).
-- {count in flight, last ended or nil, the now it judged by}.
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return { redis.call('ZCARD', KEYS[1]), redis.call('GET', KEYS[2]), tostring(now) }
