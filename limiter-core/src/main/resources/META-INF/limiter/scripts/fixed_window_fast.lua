-- The decision for the commonest shape alone: one enforced fixed-window limit with no alert and no
-- ban of its own, in 'acquire' mode. It decides exactly as decide.lua does for that shape, with
-- the same KEYS, ARGV and reply, minus what the shape never needs: Redis's clock (a fixed window
-- is its counter's TTL), the per-limit tables, and the alert.
--
-- KEYS     three, as decide.lua's for one limit: state, ban, alert (the alert key is not touched)
-- ARGV     as decide.lua's for one limit: 'acquire', 1, algorithm (1), max, window in ms, cost,
--          alert-at (0), ban in ms (0), shadow (0)
-- Reply    six integers, as decide.lua's for one limit: outcome (0 allowed, 1 rejected, 2 banned),
--          count, reset, retry, alert (0), ban_started (0)

local max, window, cost = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

-- PTTL in milliseconds, 0 if missing; a key without expiry gets the window, as decide.lua does
local function ttl_of(key)
  local ttl = redis.call('PTTL', key)
  if ttl == -1 then
    redis.call('PEXPIRE', key, window)
    return window
  end
  return math.max(ttl, 0)
end

local current = redis.call('GET', KEYS[1])
local count, reset = 0, 0
if current then
  count = tonumber(current)
  reset = ttl_of(KEYS[1])
end
-- a ban of this limit's key still binds, such as one started while its policy had ban-for
local ban = ttl_of(KEYS[2])
if ban > 0 then
  return { 2, count, reset, ban, 0, 0 }
end
if count + cost > max then
  return { 1, count, reset, reset, 0, 0 }
end
if cost == 0 then
  return { 0, count, reset, 0, 0, 0 }
end
if current then
  return { 0, redis.call('INCRBY', KEYS[1], cost), reset, 0, 0, 0 }
end
redis.call('SET', KEYS[1], cost, 'PX', window)
return { 0, cost, window, 0, 0, 0 }
