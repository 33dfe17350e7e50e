-- At most one holder per volume: free, or held by this same attempt (a re-delivered job), it is taken with
-- the next fencing token; held by another attempt, it is refused. The attempt's first token is kept, so a
-- stop after it fences every re-delivery too.
-- KEYS: gate, fence counter, attempt's first token. ARGV: attempt, lease ms, first-token TTL seconds.
-- {1, token, first token} when taken; {0, holder's value} when held by another.
local holder = redis.call('GET', KEYS[1])
if (not holder) or holder == ARGV[1] or string.sub(holder, 1, #ARGV[1] + 1) == ARGV[1] .. '#' then
  local token = redis.call('INCR', KEYS[2])
  redis.call('SET', KEYS[1], ARGV[1] .. '#' .. token, 'PX', ARGV[2])
  redis.call('SET', KEYS[3], token, 'NX', 'EX', ARGV[3])
  return {1, tostring(token), tostring(redis.call('GET', KEYS[3]) or token)}
end
return {0, holder}
