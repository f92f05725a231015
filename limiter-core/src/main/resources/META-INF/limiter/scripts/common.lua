-- limiter's scripts are assembled from these files, in this order, and loaded once:
--   the decision script:   common.lua, fixed_window_fast.lua, algorithms.lua, fixed_window.lua,
--                          sliding_log.lua, sliding_window.lua, token_bucket.lua, decide.lua, one.lua
--   the coalesced script:  the same, with coalesced.lua and batch.lua in place of one.lua
--   the fast path alone:   common.lua, fixed_window_fast.lua, one_fast.lua
--   the fast path's coalesced script: common.lua, fixed_window_fast.lua, coalesced.lua, batch_fast.lua
-- decide.lua documents KEYS, ARGV and the reply; fixed_window_fast.lua the fast path's layout;
-- batch.lua how calls are put together. A script defines only what it runs: every function below
-- is made anew on each run.
--
-- Time is Redis's own, never the caller's clock, so application servers with skewed clocks agree:
-- one TIME per script run (a coalesced run of many calls included), read only once an algorithm
-- that needs it decides. Lua numbers are doubles: every value below stays an
-- integer under 2^53 (microseconds since 1970 are about 1.8e15; the Java side bounds
-- max * window for the algorithms that multiply them).

local NOW_US, NOW_MS
local function read_clock()
  if not NOW_US then
    local time = redis.call('TIME')
    NOW_US = tonumber(time[1]) * 1000000 + tonumber(time[2])
    NOW_MS = math.floor(NOW_US / 1000)
  end
end

-- The fixed window a call falls in: windows are periods of Redis's clock, aligned on multiples of
-- their length since 1970 (a 60 s window starts at each minute). Returns the field that holds the
-- window's count in the key's hash (the window's end, in ms since 1970) and the milliseconds until
-- it ends (at least 1); once per window length and run.
local WINDOWS = {}
local function window_of(window)
  local w = WINDOWS[window]
  if not w then
    read_clock()
    local ends = (math.floor(NOW_MS / window) + 1) * window
    w = { string.format('%d', ends), ends - NOW_MS }
    WINDOWS[window] = w
  end
  return w[1], w[2]
end

-- period_end(ends, t): the end of the period of those sent that holds time t (ms), or nil past them.
local function period_end(ends, t)
  for i = 1, 3 do
    if t < ends[i] then
      return ends[i]
    end
  end
  return nil
end

-- The calendar period a call falls in, as window_of gives a window: of the three periods the
-- application sent (their ends, from its own clock and the calendar of its zone), the first whose
-- end Redis's clock has not reached. Redis's clock decides; the application's only has to be less
-- than a period off. Past the third period, the clocks are too far apart to decide: an error.
local function period_of(ends)
  read_clock()
  local ends_at = period_end(ends, NOW_MS)
  if ends_at then
    return string.format('%d', ends_at), ends_at - NOW_MS
  end
  error('limiter: Redis clock ' .. NOW_MS .. ' is past the calendar periods sent (up to ' .. ends[3]
    .. '): the application clock is more than a period behind Redis')
end

-- Added to a fixed window's count, negative, once a ban of its key started or was found in that
-- window: its calls then look the ban up, which the others never do (a ban key is read once per key
-- and window otherwise, by the window's first call). 2^51: above any fixed window's count (the Java
-- side bounds max by 2^49), and a marked count stays exact in a Lua number.
local BAN_MARK = 2251799813685248

-- The ban and alert keys of an enforced limit, from its state key (as RedisKeys builds them).
local function ban_key_of(state_key)
  return state_key .. ':ban'
end

local function alert_key_of(state_key)
  return state_key .. ':alert'
end

-- PTTL of a key in milliseconds, 0 if it is missing. A key without expiry can only have been
-- written by something else; it gets one, so that it cannot block a key forever.
local function ttl_of(key, fallback)
  local ttl = redis.call('PTTL', key)
  if ttl == -1 then
    redis.call('PEXPIRE', key, fallback)
    return fallback
  end
  return math.max(ttl, 0)
end
