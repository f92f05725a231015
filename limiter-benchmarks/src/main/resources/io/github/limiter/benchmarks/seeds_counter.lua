-- The fixed window as the seed articles write it by hand, called from the HTTP benchmark's
-- hand-written endpoint through StringRedisTemplate and DefaultRedisScript: INCR, EXPIRE when the
-- counter is new, the count compared with max. One command per call, two on a window's first.
--
-- KEYS[1]  the counter
-- ARGV[1]  the window, in seconds
-- ARGV[2]  max
--
-- Reply: 1 if allowed, 0 if refused (refused calls are counted too)

local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
if count > tonumber(ARGV[2]) then
  return 0
end
return 1
