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
  end
}
