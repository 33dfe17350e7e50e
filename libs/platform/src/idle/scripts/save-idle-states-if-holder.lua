-- Many pods' idle states saved in one step, each only by its lock's holder: a lapsed holder's save is
-- refused. KEYS[2i-1], KEYS[2i]: pod i's lock, state. ARGV[2i-1], ARGV[2i]: its holder's token, state
-- JSON. Per pod: 1 saved, 0 when the lock is not ours.
local saved = {}
for i = 1, #KEYS / 2 do
  if redis.call('GET', KEYS[2 * i - 1]) == ARGV[2 * i - 1] then
    redis.call('SET', KEYS[2 * i], ARGV[2 * i])
    saved[i] = 1
  else
    saved[i] = 0
  end
end
return saved
