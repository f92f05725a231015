-- Decides one call under one or more limits, atomically: the call passes only if every enforced
-- limit allows it; a rejected call is counted by none of them. Shadow limits are decided and
-- reported alike, but never stop the call.
--
-- KEYS     three per limit, all with the limit's hash tag:
--            state  <prefix>{<limit-id>:<key>}         window counts, log, or two-counter/bucket hash
--            ban    <prefix>{<limit-id>:<key>}:ban     present while the key is banned
--                   (:shadow-ban for a shadow limit, so that its would-be bans never bind)
--            alert  <prefix>{<limit-id>:<key>}:alert   present once the window's alert has fired
-- ARGV[1]  'acquire' to decide and count, 'check' to decide without counting or banning (the
--          first pass over limits in different Redis Cluster slots), 'peek' to read the state only,
--          'settle' to settle a call decided earlier (see below)
-- ARGV[2]  n, the number of limits; then ten values per limit:
--            algorithm (1 fixed window, 2 sliding log, 3 sliding window, 4 token bucket),
--            max, window in ms, cost (permits this call takes, 0..max),
--            alert-at (0: none), ban in ms (0: none), shadow (1: shadow mode, 0: enforced),
--            period ends: for a calendar limit (a fixed window), the ends in ms since 1970 of the
--            calendar period before the one the application's clock is in, of that one and of the
--            next; the call counts in the first that Redis's clock has not passed (period_of);
--            0 0 0 for a limit without a calendar; for a token bucket (never a calendar limit),
--            its burst (the tokens its bucket holds; 0: max) and 0 0
--
-- Reply for 'acquire': six integers per limit, in order:
--   outcome      0 allowed, 1 rejected (past max), 2 banned, 3 allowed by this limit but the call
--                was rejected by another (for a shadow limit: what it would have decided)
--   count        the count after this call if allowed, else before it
--   reset        ms until the window ends or the state is gone
--   retry        ms until the call may pass: 0 if allowed, else the limit's or the ban's
--   alert        1 if this call is the first past alert-at in its window
--   ban_started  1 if this call started the key's ban
-- Reply for 'check': the same six integers, as if acquiring, but nothing is written.
-- Reply for 'peek': three integers per limit: count, reset, ms left on the ban.
--
-- 'settle' gives back or charges what a call allowed earlier turned out to cost beyond the cost its
-- decision took (@RateLimit's actualCost), in the window the call was decided in. Its keys are
-- those of 'acquire' (only the state is written); after ARGV[2], n, it takes nine values per limit
-- of its own:
--            algorithm, window in ms, delta (the actual cost less the decision's cost; negative:
--            given back), reset (the ms until its window ended that the call's decision replied),
--            since (the ms from that reply to this call), channel (where a count that fell is
--            announced, the state key as message, as an unban's, so that the instances that
--            remember refusals ask Redis again; empty for none), period ends as 'acquire''s, of now
-- Reply for 'settle': three integers per limit: 1 if a count was changed (0: the call's window had
-- ended, nothing is written), the count of the call's window after it, the ms until that window ends.
--
-- decide(ko, ao, reply) decides one call whose keys start after KEYS[ko] and whose arguments start
-- after ARGV[ao] (0 and 0 for a call on its own; see batch.lua), appending its reply to reply.

local function decide(ko, ao, reply)
  local mode = ARGV[ao + 1]
  local n = tonumber(ARGV[ao + 2])
  if mode == 'settle' then
    for i = 1, n do
      local a = ao + 2 + (i - 1) * 9
      local l = { state_key = KEYS[ko + (i - 1) * 3 + 1], algorithm = tonumber(ARGV[a + 1]),
                  window = tonumber(ARGV[a + 2]), delta = tonumber(ARGV[a + 3]), reset = tonumber(ARGV[a + 4]),
                  since = tonumber(ARGV[a + 5]) }
      if ARGV[a + 7] ~= '0' then
        l.ends = { tonumber(ARGV[a + 7]), tonumber(ARGV[a + 8]), tonumber(ARGV[a + 9]) }
      end
      local settle = ALGORITHMS[l.algorithm].settle
      if not settle then
        error('limiter: calls under algorithm ' .. l.algorithm .. ' cannot be settled')
      end
      local changed, count, reset = settle(l)
      local channel = ARGV[a + 6]
      if changed == 1 and l.delta < 0 and channel ~= '' then
        redis.call('PUBLISH', channel, l.state_key)
      end
      local r = #reply
      reply[r + 1], reply[r + 2], reply[r + 3] = changed, count, reset
    end
    return
  end
  local limits, states = {}, {}
  local all_fit = true

  for i = 1, n do
    local a = ao + 2 + (i - 1) * 10
    local k = ko + (i - 1) * 3
    local l = { state_key = KEYS[k + 1], ban_key = KEYS[k + 2], alert_key = KEYS[k + 3],
                algorithm = tonumber(ARGV[a + 1]), max = tonumber(ARGV[a + 2]), window = tonumber(ARGV[a + 3]),
                cost = tonumber(ARGV[a + 4]), alert_at = tonumber(ARGV[a + 5]), ban_ms = tonumber(ARGV[a + 6]),
                shadow = tonumber(ARGV[a + 7]) == 1 }
    if ARGV[a + 8] ~= '0' then
      if l.algorithm == 4 then
        l.burst = tonumber(ARGV[a + 8])
      else
        l.ends = { tonumber(ARGV[a + 8]), tonumber(ARGV[a + 9]), tonumber(ARGV[a + 10]) }
      end
    end
    local s = ALGORITHMS[l.algorithm].check(l)
    s.ban = ttl_of(l.ban_key, math.max(l.ban_ms, l.window))
    if (s.ban > 0 or not s.fits) and not l.shadow then
      all_fit = false
    end
    limits[i], states[i] = l, s
  end

  local function push(a, b, c, d, e, f)
    local r = #reply
    reply[r + 1], reply[r + 2], reply[r + 3] = a, b, c
    if d ~= nil then
      reply[r + 4], reply[r + 5], reply[r + 6] = d, e, f
    end
  end

  for i = 1, n do
    local l, s = limits[i], states[i]
    if mode == 'peek' then
      push(s.count, s.reset, s.ban)
    elseif mode == 'check' then
      if s.ban > 0 then
        push(2, s.count, s.reset, s.ban, 0, 0)
      elseif not s.fits then
        push(1, s.count, s.reset, s.retry, 0, 0)
      else
        push(0, s.count, s.reset, 0, 0, 0)
      end
    elseif s.ban > 0 then
      push(2, s.count, s.reset, s.ban, 0, 0)
    elseif not s.fits then
      if l.ban_ms > 0 then
        redis.call('SET', l.ban_key, s.count, 'PX', l.ban_ms)
        local banned = ALGORITHMS[l.algorithm].banned
        if banned and not l.shadow then
          banned(l, s)
        end
        push(2, s.count, s.reset, l.ban_ms, 0, 1)
      else
        push(1, s.count, s.reset, s.retry, 0, 0)
      end
    elseif not all_fit then
      push(3, s.count, s.reset, 0, 0, 0)
    else
      local count, reset, alert_ttl, alert_window
      if l.cost > 0 then
        count, reset, alert_ttl, alert_window = ALGORITHMS[l.algorithm].commit(l, s)
      else
        count, reset, alert_ttl = s.count, s.reset, l.window
      end
      local alert = 0
      if l.alert_at > 0 and s.count <= l.alert_at and count > l.alert_at then
        if alert_window then
          -- a fixed window's marker names its window, as the fast path's
          alert = fixed_window_alert(l.alert_key, alert_window, alert_ttl)
        elseif redis.call('SET', l.alert_key, '1', 'PX', math.max(alert_ttl, 1), 'NX') then
          -- a window read in its last millisecond has a TTL of 0; the marker still needs one
          alert = 1
        end
      end
      push(0, count, reset, 0, alert, 0)
    end
  end
end
