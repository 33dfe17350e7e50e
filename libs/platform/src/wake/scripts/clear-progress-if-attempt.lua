-- An attempt clears only its own wake progress, never a newer attempt's.
-- KEYS: progress. ARGV: attempt id. 1 cleared, 0 absent or another attempt's.
local v = redis.call('GET', KEYS[1])
if v and cjson.decode(v).attemptId == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
