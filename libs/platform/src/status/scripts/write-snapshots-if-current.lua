-- Many snapshots written in one step, each only at its
-- reader's generation, never over a newer observation. KEYS: the snapshot hashes. ARGV[3i-2..3i]: hash
-- i's generation, observed at (ms), snapshot JSON. Per hash: 1 written, 0 refused.
local written = {}
for i = 1, #KEYS do
  local gen = tonumber(redis.call('HGET', KEYS[i], 'gen') or '0')
  local at = tonumber(redis.call('HGET', KEYS[i], 'at') or '-1')
  if gen ~= tonumber(ARGV[3 * i - 2]) or at > tonumber(ARGV[3 * i - 1]) then
    written[i] = 0
  else
    redis.call('HSET', KEYS[i], 'at', ARGV[3 * i - 1], 'snap', ARGV[3 * i])
    written[i] = 1
  end
end
return written
