-- One read of many hashes in one step (a tick's pods read theirs together): HGET of ARGV[1] in each,
-- or with no ARGV, HGETALL of each. KEYS: the hashes. Per hash: the value (nil if none), or its fields
-- and values, flat.
local out = {}
for i = 1, #KEYS do
  if #ARGV > 0 then out[i] = redis.call('HGET', KEYS[i], ARGV[1]) else out[i] = redis.call('HGETALL', KEYS[i]) end
end
return out
