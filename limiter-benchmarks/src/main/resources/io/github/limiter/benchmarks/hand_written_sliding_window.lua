-- A sliding window as a user would write it by hand: this window's and the previous window's
-- counts in one hash per key, the previous one weighted by how much of it still overlaps. Time
-- from Redis. A refused call is not counted.
--
-- KEYS[1]  the hash: w (window index), c (its count), p (the previous window's count)
-- ARGV[1]  the window, in ms
-- ARGV[2]  max
--
-- Reply: two integers: 1 if allowed, else 0; the estimated calls in the window

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local w, max = tonumber(ARGV[1]), tonumber(ARGV[2])
local idx = math.floor(now / w)
local h = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local c, p = 0, 0
if h[1] then
  local stored = tonumber(h[1])
  if stored == idx then
    c, p = tonumber(h[2]), tonumber(h[3])
  elseif stored == idx - 1 then
    p = tonumber(h[2])
  end
end
local elapsed = now - idx * w
local estimate = (p * (w - elapsed)) / w + c
if estimate + 1 > max then
  return { 0, math.floor(estimate) }
end
redis.call('HSET', KEYS[1], 'w', idx, 'c', c + 1, 'p', p)
redis.call('PEXPIRE', KEYS[1], 2 * w - elapsed)
return { 1, math.floor(estimate + 1) }
