-- Many pods' proxy traffic in one step: lapsed leases dropped before counting.
-- KEYS[2i-1], KEYS[2i]: pod i's in-flight sorted set, last ended. ARGV[1]: now (shared clock).
-- Per pod: {count in flight, last ended or nil, the now it judged by}.
local now = tonumber(ARGV[1])
local out = {}
for i = 1, #KEYS / 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[2 * i - 1], '-inf', now)
  out[i] = { redis.call('ZCARD', KEYS[2 * i - 1]), redis.call('GET', KEYS[2 * i]), tostring(now) }
end
return out
