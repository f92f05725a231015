-- The decision for the commonest shape: one enforced fixed-window limit, with or without alert and
-- ban, in 'acquire' mode. It decides exactly as decide.lua's general path does for that shape, in
-- a layout of its own, shorter than the general one:
--
-- KEYS     one: the state key (the ban and alert keys are built from it, as RedisKeys does)
-- ARGV     'f' (no alert, no ban), max, window in ms, cost: four values
--          't' (with alert or ban), max, window in ms, cost, alert-at, ban in ms: six values
-- Reply    three integers: the count, the reset (ms), and retry * 16 + outcome + alert * 4 +
--          ban_started * 8 (each as decide.lua's for 'acquire'; the Java side unpacks them)
--
-- An allowed call runs one command: HINCRBY of its window's count. The first call of a window also
-- sets the key's expiry (the window's end), carries over a count the key keeps under another
-- window length (its limit's window changed while running), and looks the key's ban up; a ban
-- started or found in a window marks its count (BAN_MARK), so that the window's later calls look
-- the ban up too. A call past max takes its increment back at once, in the same script, so a
-- rejected call is counted by nothing.

-- A fixed window's count as stored: less BAN_MARK while the window is marked.
local function unmarked(count)
  if count < 0 then
    return count + BAN_MARK
  end
  return count
end

-- The count of the i-th field of a key's hash (its fields and values, as HGETALL gives them), if
-- its window still runs; 0 if it ended.
local function running(all, i)
  local ends = tonumber(all[i])
  if ends and ends > NOW_MS then
    return unmarked(tonumber(all[i + 1]))
  end
  return 0
end

-- The count of a key's hash in the windows still running: the current window's, and one of
-- another length (the limit's window changed while running).
local function running_count(all)
  local count = 0
  for i = 1, #all, 2 do
    count = count + running(all, i)
  end
  return count
end

-- The counts a key's hash keeps beside the window's field: those of windows still running (of
-- another length: the limit's window changed while running) are carried over to the window's, and
-- removed with those of windows that ended (at the edge of a window, Redis may not yet have expired
-- the key). Returns the count carried. all: the hash's fields and values, if already read.
local function carry_over(state_key, field, all)
  all = all or redis.call('HGETALL', state_key)
  local carried = 0
  for i = 1, #all, 2 do
    if all[i] ~= field then
      carried = carried + running(all, i)
      redis.call('HDEL', state_key, all[i])
    end
  end
  if carried > 0 then
    return redis.call('HINCRBY', state_key, field, carried)
  end
  return nil
end

-- The alert of a fixed window: 1 if it fires now, once per key and window. The marker holds the
-- window it fired in (its field), so that a marker of the window before, whose expiry may trail
-- that window's end by a millisecond, does not stand for this one's.
local function fixed_window_alert(alert_key, field, reset)
  if redis.call('GET', alert_key) == field then
    return 0
  end
  redis.call('SET', alert_key, field, 'PX', reset)
  return 1
end

-- Decides one call in the layout above.
-- ko, ao   where the call's keys and arguments start in KEYS and ARGV (0 for a call on its own)
-- reply    the three integers are appended to it
-- Returns how many arguments the call took.
local function fixed_window_fast(ko, ao, reply)
  local state_key = KEYS[ko + 1]
  local max, window, cost = tonumber(ARGV[ao + 2]), tonumber(ARGV[ao + 3]), tonumber(ARGV[ao + 4])
  local alert_at, ban_ms, used = 0, 0, 4
  if ARGV[ao + 1] == 't' then
    alert_at, ban_ms, used = tonumber(ARGV[ao + 5]), tonumber(ARGV[ao + 6]), 6
  end
  local field, reset = window_of(window)
  local outcome, count, retry, alert, ban_started, ban = 0, 0, 0, 0, 0, 0
  if cost == 0 then
    -- reads only; a ban binds whether or not the window has a count
    count = running_count(redis.call('HGETALL', state_key))
    ban = ttl_of(ban_key_of(state_key), math.max(ban_ms, window))
  else
    count = redis.call('HINCRBY', state_key, field, cost)
    if count == cost then
      -- the window's first call: the key lives until the window ends, a count kept under another
      -- window length is carried over, and a ban of the key (one started in an earlier window, or
      -- while the policy had ban-for) marks the window
      if redis.call('HLEN', state_key) > 1 then
        count = carry_over(state_key, field) or count
      end
      redis.call('PEXPIRE', state_key, reset)
      ban = ttl_of(ban_key_of(state_key), math.max(ban_ms, window))
      if ban > 0 then
        count = redis.call('HINCRBY', state_key, field, -cost - BAN_MARK) + BAN_MARK
      end
    elseif count < 0 then
      -- a marked window: is its ban still in force?
      ban = ttl_of(ban_key_of(state_key), math.max(ban_ms, window))
      if ban > 0 then
        count = redis.call('HINCRBY', state_key, field, -cost) + BAN_MARK
      else
        -- the ban ended: the window's count goes on, unmarked
        count = redis.call('HINCRBY', state_key, field, BAN_MARK)
      end
    end
  end
  if count == 0 then
    -- a window without a count reports no reset, as a key without state
    reset = 0
  end
  if ban > 0 then
    outcome, retry = 2, ban
  elseif count > max then
    if cost > 0 then
      count = redis.call('HINCRBY', state_key, field, -cost)
    end
    if ban_ms > 0 and cost > 0 then
      redis.call('SET', ban_key_of(state_key), count, 'PX', ban_ms)
      redis.call('HINCRBY', state_key, field, -BAN_MARK)
      outcome, retry, ban_started = 2, ban_ms, 1
    else
      outcome, retry = 1, reset
    end
  elseif cost > 0 and alert_at > 0 and count - cost <= alert_at and count > alert_at then
    alert = fixed_window_alert(alert_key_of(state_key), field, reset)
  end
  local r = #reply
  reply[r + 1], reply[r + 2], reply[r + 3] = count, reset, retry * 16 + outcome + alert * 4 + ban_started * 8
  return used
end
