-- Many pods' idle locks asked for in one step, each taken only if free (SET NX with a lease), as one
-- SET NX per lock would. KEYS: the locks. ARGV[2i-1], ARGV[2i]: lock i's holder, lease ms.
-- Per lock: 1 taken, 0 held already.
local taken = {}
for i = 1, #KEYS do
  taken[i] = redis.call('SET', KEYS[i], ARGV[2 * i - 1], 'PX', ARGV[2 * i], 'NX') and 1 or 0
end
return taken
