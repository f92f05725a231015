-- The decision for the commonest shape: one enforced fixed-window limit, with or without alert and
-- ban, in 'acquire' mode. It decides exactly as decide.lua's general path does for that shape,
-- with the same KEYS, ARGV and reply, minus what the shape never needs: Redis's clock (a fixed
-- window is its counter's TTL), the per-limit tables, and a read before the write. The counter is
-- incremented first; a call past max takes its increment back at once, in the same script, so a
-- rejected call is counted by nothing.
--
-- ko, ao   where the call's keys and arguments start in KEYS and ARGV (0 for a call on its own)
-- reply    the six integers are appended to it, as decide.lua documents
local function fixed_window_fast(ko, ao, reply)
  local state_key, ban_key = KEYS[ko + 1], KEYS[ko + 2]
  local max, window, cost = tonumber(ARGV[ao + 4]), tonumber(ARGV[ao + 5]), tonumber(ARGV[ao + 6])
  local alert_at, ban_ms = tonumber(ARGV[ao + 7]), tonumber(ARGV[ao + 8])
  local r = #reply
  local outcome, count, reset, retry, alert, ban_started = 0, 0, 0, 0, 0, 0
  -- a ban binds, also one started while the limit's policy had ban-for and no longer has
  local ban = ttl_of(ban_key, math.max(ban_ms, window))
  if ban > 0 or cost == 0 then
    local current = redis.call('GET', state_key)
    if current then
      count, reset = tonumber(current), ttl_of(state_key, window)
    end
    if ban > 0 then
      outcome, retry = 2, ban
    elseif count > max then
      outcome, retry = 1, reset
    end
  else
    count = redis.call('INCRBY', state_key, cost)
    if count == cost then
      -- a new window (a counter without expiry can only come from elsewhere; it gets one too)
      redis.call('PEXPIRE', state_key, window)
      reset = window
    else
      reset = ttl_of(state_key, window)
    end
    if count > max then
      count = redis.call('DECRBY', state_key, cost)
      if ban_ms > 0 then
        redis.call('SET', ban_key, count, 'PX', ban_ms)
        outcome, retry, ban_started = 2, ban_ms, 1
      else
        outcome, retry = 1, reset
      end
    elseif alert_at > 0 and count - cost <= alert_at and count > alert_at
        and redis.call('SET', KEYS[ko + 3], '1', 'PX', math.max(reset, 1), 'NX') then
      -- a window read in its last millisecond has a TTL of 0; the marker still needs one
      alert = 1
    end
  end
  reply[r + 1], reply[r + 2], reply[r + 3], reply[r + 4], reply[r + 5], reply[r + 6] =
      outcome, count, reset, retry, alert, ban_started
end
