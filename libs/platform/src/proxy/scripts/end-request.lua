-- A request ends and the last-ended time only moves forward: replicas ending out of order never move it
-- back. KEYS: in-flight sorted set, last ended. ARGV: now (shared clock), request id.
local now = tonumber(ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[2])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if now > last then redis.call('SET', KEYS[2], now) end
return 1
