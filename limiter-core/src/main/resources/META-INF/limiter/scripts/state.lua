-- Reads a key's state under a limit without counting a call.
--
-- KEYS[1]  the counter key
-- KEYS[2]  the ban key
--
-- Returns {count, window_ttl, ban_ttl}: the window's count (0 if none), and the milliseconds left
-- in the window and on the ban (0 if none). Writes nothing.

local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local window_ttl = math.max(redis.call('PTTL', KEYS[1]), 0)
local ban_ttl = math.max(redis.call('PTTL', KEYS[2]), 0)
return {count, window_ttl, ban_ttl}
