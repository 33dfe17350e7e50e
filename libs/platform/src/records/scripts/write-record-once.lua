-- One durable record, written at most once however often it is retried, and the intent's fate in the same
-- step: of a late answer and a reconcile only the first records. The closed marker, not the intent,
-- decides a claim: a Redis that lost its data lost the intent too, and the answer still counts.
-- KEYS: stream, written marker, intents hash, closed marker. ARGV: mode, entry, intent id, intent, TTL, cap.
if redis.call('EXISTS', KEYS[2]) == 1 then return 'dup' end
local mode = ARGV[1]
if mode ~= 'none' then
  if redis.call('EXISTS', KEYS[4]) == 1 then return 'claimed-elsewhere' end
  if mode == 'claim' then
    redis.call('HDEL', KEYS[3], ARGV[3])
    redis.call('SET', KEYS[4], '1', 'EX', ARGV[5])
  else
    redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
  end
end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[6], '*', 'entry', ARGV[2])
redis.call('SET', KEYS[2], '1', 'EX', ARGV[5])
return 'recorded'
