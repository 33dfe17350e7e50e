-- Many leases dropped in one step, each only by its holder (release-if-holder.lua, lease by lease).
-- KEYS: the leases. ARGV[i]: the holder of KEYS[i]. Per lease: 1 released, 0 not ours.
local released = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[i] then released[i] = redis.call('DEL', KEYS[i]) else released[i] = 0 end
end
return released
