-- FIXED_WINDOW (1): windows are periods of Redis's clock, aligned on multiples of their length (a
-- 60 s window starts at each minute), or, for a calendar limit, the calendar periods decide.lua's
-- arguments carry (period_of), which only this general path counts; a key's counts are a hash,
-- one field per window (its end, in ms since 1970), and the key expires when its window ends.
-- Admits up to 2 x max calls across the edge of two windows. The general path of
-- fixed_window_fast.lua's shape, and what every other shape (several limits, shadow mode, 'check'
-- and 'peek') runs: the same counts, read before they are written; a count kept under another
-- window length is carried over as the fast path does.
ALGORITHMS[1] = {
  check = function(l)
    local field, reset
    if l.ends then
      field, reset = period_of(l.ends)
    else
      field, reset = window_of(l.window)
    end
    local all = redis.call('HGETALL', l.state_key)
    local s = { field = field, window_reset = reset, all = all, reset = 0 }
    s.count = running_count(all)
    if s.count > 0 then
      s.reset = reset
    end
    -- fields beside the window's: carried over (or dropped, if their window ended) when it is written
    s.others = #all > 2 or (#all == 2 and all[1] ~= field)
    s.fits = s.count + l.cost <= l.max
    s.retry = s.reset
    return s
  end,
  commit = function(l, s)
    if s.others then
      carry_over(l.state_key, s.field, s.all)
    end
    local count = redis.call('HINCRBY', l.state_key, s.field, l.cost)
    if count == l.cost or s.others then
      redis.call('PEXPIRE', l.state_key, s.window_reset)
    end
    return unmarked(count), s.window_reset, s.window_reset, s.field
  end,
  -- a ban started here binds the fast path too: its window is marked, as the fast path marks it
  banned = function(l, s)
    if s.others then
      carry_over(l.state_key, s.field, s.all)
    end
    redis.call('HINCRBY', l.state_key, s.field, -BAN_MARK)
    redis.call('PEXPIRE', l.state_key, s.window_reset)
  end,
  -- The call's window ends at its decision's time plus the reset it replied, and no later than
  -- now - since + reset (since runs from the reply's arrival, after the decision): the latest
  -- field of a running window up to then (+1 for the milliseconds both clocks round down).
  settle = function(l)
    read_clock()
    local latest = NOW_MS - l.since + l.reset + 1
    local all = redis.call('HGETALL', l.state_key)
    local field, ends, stored
    for i = 1, #all, 2 do
      local e = tonumber(all[i])
      if e and e > NOW_MS and e <= latest and (not ends or e > ends) then
        field, ends, stored = all[i], e, tonumber(all[i + 1])
      end
    end
    if not field then
      if l.delta <= 0 or l.reset > 0 then
        return 0, 0, 0
      end
      -- the call took nothing from a window without a count (reset 0): its charge opens the window
      -- of the decision's time (a calendar limit's: the period of those sent that holds it), if
      -- that still runs
      local decided = NOW_MS - l.since
      if l.ends then
        ends = period_end(l.ends, decided)
      else
        ends = (math.floor(decided / l.window) + 1) * l.window
      end
      if not ends or ends <= NOW_MS then
        return 0, 0, 0
      end
      local count = redis.call('HINCRBY', l.state_key, string.format('%d', ends), l.delta)
      if redis.call('PTTL', l.state_key) < ends - NOW_MS then
        redis.call('PEXPIRE', l.state_key, ends - NOW_MS)
      end
      return 1, unmarked(count), ends - NOW_MS
    end
    local count = unmarked(stored)
    local change = math.max(count + l.delta, 0) - count
    if change == 0 then
      return 0, count, ends - NOW_MS
    end
    redis.call('HINCRBY', l.state_key, field, change)
    return 1, count + change, ends - NOW_MS
  end
}
