-- Each request in flight is leased until now + lease on the shared clock; a renewal ('XX') extends only
-- requests still open, so a request already ended is never brought back.
-- KEYS: in-flight sorted set. ARGV: now (shared clock), lease ms, 'XX' or '', request ids...
local expiry = tonumber(ARGV[1]) + tonumber(ARGV[2])
for i = 4, #ARGV do
  if ARGV[3] == 'XX' then redis.call('ZADD', KEYS[1], 'XX', expiry, ARGV[i])
  else redis.call('ZADD', KEYS[1], expiry, ARGV[i]) end
end
return 1
