-- A snapshot lands only at the generation its reader started from, and never over a newer observation:
-- a read that began before a start or stop cannot overwrite what came after it. One key (Cluster-safe).
-- KEYS: snapshot hash. ARGV: generation, observed at (ms), snapshot JSON. 1 written, 0 refused.
local gen = tonumber(redis.call('HGET', KEYS[1], 'gen') or '0')
if gen ~= tonumber(ARGV[1]) then return 0 end
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or '-1')
if at > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'at', ARGV[2], 'snap', ARGV[3])
return 1
