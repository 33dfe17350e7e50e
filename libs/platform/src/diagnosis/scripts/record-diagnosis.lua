-- One entry per finding: while the same pod keeps the same diagnosis the newest entry is replaced (not one
-- per tick), and the list stays capped. KEYS: diagnoses list. ARGV: entry JSON, pod id, kind, last index.
-- 1 when a new finding was added, 0 when the newest was replaced.
local head = redis.call('LINDEX', KEYS[1], 0)
if head then
  local h = cjson.decode(head)
  if h.podId == ARGV[2] and h.kind == ARGV[3] then
    redis.call('LSET', KEYS[1], 0, ARGV[1])
    return 0
  end
end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, ARGV[4])
return 1
