-- Fixed window with alert and ban tiers: counts calls in a window that starts with the first
-- counted call for the key, and decides everything about one call atomically.
--
-- KEYS[1]  the counter key           <prefix>{<limit-id>:<key>}
-- KEYS[2]  the ban key               <prefix>{<limit-id>:<key>}:ban  (same hash tag, same slot)
-- ARGV[1]  max: calls allowed per window (integer >= 1)
-- ARGV[2]  window in milliseconds (integer >= 1)
-- ARGV[3]  cost: permits this call takes (integer >= 1)
-- ARGV[4]  alert-at: the count past which the next call alerts (0: no alert)
-- ARGV[5]  ban in milliseconds for a key that goes past max (0: no ban)
--
-- Returns {outcome, count, window_ttl, retry_after, alert, ban_started}
--   outcome      0 allowed, 1 rejected (past max), 2 rejected (banned)
--   count        the window's count after this call; rejected calls are not counted
--   window_ttl   milliseconds left in the window (0 if no window is open)
--   retry_after  milliseconds until a call may pass: 0 when allowed, else the window's or the ban's
--   alert        1 if this call is the first past alert-at in its window, else 0
--   ban_started  1 if this call started the key's ban, else 0
--
-- Every key is written with its expiry in the same command (SET ... PX), and the script runs
-- atomically, so no key ever exists without a TTL. Time is Redis's own (key TTLs), never the
-- caller's clock.

local counter_key = KEYS[1]
local ban_key = KEYS[2]
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local alert_at = tonumber(ARGV[4])
local ban_ms = tonumber(ARGV[5])

-- PTTL of a key: -2 if missing; a key without expiry (written by something else) gets one, so
-- that it cannot block the key forever.
local function ttl_of(key, fallback)
  local ttl = redis.call('PTTL', key)
  if ttl == -1 then
    redis.call('PEXPIRE', key, fallback)
    return fallback
  end
  return ttl
end

local current = redis.call('GET', counter_key)
local count = 0
local window_ttl = 0
if current then
  count = tonumber(current)
  window_ttl = math.max(ttl_of(counter_key, window), 0)
end

local ban_ttl = ttl_of(ban_key, math.max(ban_ms, 1))
if ban_ttl > 0 then
  return {2, count, window_ttl, ban_ttl, 0, 0}
end

if count + cost > max then
  if ban_ms > 0 then
    redis.call('SET', ban_key, count, 'PX', ban_ms)
    return {2, count, window_ttl, ban_ms, 0, 1}
  end
  return {1, count, window_ttl, window_ttl, 0, 0}
end

if current then
  count = redis.call('INCRBY', counter_key, cost)
else
  redis.call('SET', counter_key, cost, 'PX', window)
  count = cost
  window_ttl = window
end

local alert = 0
if alert_at > 0 and count - cost <= alert_at and count > alert_at then
  alert = 1
end
return {0, count, window_ttl, 0, alert, 0}
