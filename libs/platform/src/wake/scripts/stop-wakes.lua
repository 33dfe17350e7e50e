-- An operator's stop fences every wake that claimed the gate before it: a new token no run holds,
-- remembered as the stop's, and the gate taken away. A wake that claims afterwards runs as usual.
-- KEYS: gate, fence counter, stop mark. ARGV: stop mark TTL seconds. Returns the stop's token.
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[3], token, 'EX', ARGV[1])
redis.call('DEL', KEYS[1])
return token
