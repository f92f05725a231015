-- SLIDING_WINDOW (3): two counters per key (a hash: window index w, its count c, the previous
-- window's count p), windows aligned on multiples of their length. The estimate of the calls in
-- the last window is p * (window - elapsed) / window + c: the previous window's calls counted as if
-- spread evenly. Constant memory. All comparisons are multiplied out by window to stay on integers.
ALGORITHMS[3] = {
  check = function(l)
    read_clock()
    local w = l.window
    local idx = math.floor(NOW_MS / w)
    local elapsed = NOW_MS - idx * w
    local h = redis.call('HMGET', l.state_key, 'w', 'c', 'p', 'l')
    local c, p = 0, 0
    -- counts kept under another window length (the window changed while running) are not comparable
    if h[1] and (not h[4] or tonumber(h[4]) == w) then
      local stored = tonumber(h[1])
      if stored == idx then
        c, p = tonumber(h[2]), tonumber(h[3])
      elseif stored == idx - 1 then
        p = tonumber(h[2])
      end
    end
    local weighted = p * (w - elapsed) + c * w
    local s = { idx = idx, elapsed = elapsed, c = c, p = p, count = math.floor(weighted / w),
                reset = w - elapsed, retry = 0 }
    s.fits = weighted + l.cost * w <= l.max * w
    if not s.fits then
      local room = l.max - c - l.cost
      if room >= 0 and p > 0 then
        -- later in this window, once the previous window's weight has shrunk enough
        s.retry = (w - math.floor(room * w / p)) - elapsed
      else
        -- in the next window, where this window's count becomes the previous one
        local wait_next = 0
        if c > 0 then
          wait_next = math.max(w - math.floor((l.max - l.cost) * w / c), 0)
        end
        s.retry = (w - elapsed) + wait_next
      end
      s.retry = math.max(s.retry, 1)
    end
    return s
  end,
  commit = function(l, s)
    local w = l.window
    local c = s.c + l.cost
    redis.call('HSET', l.state_key, 'w', s.idx, 'c', c, 'p', s.p, 'l', w)
    -- kept through the next window, where it is the previous window's count
    redis.call('PEXPIRE', l.state_key, (w - s.elapsed) + w)
    return math.floor((s.p * (w - s.elapsed) + c * w) / w), s.reset, w
  end,
  -- The call's window is the latest that ends by now - since + reset (as fixed_window.lua finds
  -- it): its count is c while it runs, then p through the next window, where it still weighs.
  settle = function(l)
    read_clock()
    local w = l.window
    local idx = math.floor((NOW_MS - l.since + l.reset + 1) / w) - 1
    local current = math.floor(NOW_MS / w)
    local h = redis.call('HMGET', l.state_key, 'w', 'c', 'p', 'l')
    if idx < current - 1 or (h[4] and tonumber(h[4]) ~= w) then
      return 0, 0, 0
    end
    local stored = tonumber(h[1]) or -1
    local reset = math.max((idx + 1) * w - NOW_MS, 0)
    local name, count
    if stored == idx then
      name, count = 'c', tonumber(h[2])
    elseif stored == idx + 1 then
      name, count = 'p', tonumber(h[3])
      reset = 0
    elseif idx == current and l.delta > 0 then
      -- the call took nothing from a window without a count: its charge opens it
      local p = (stored == idx - 1) and tonumber(h[2]) or 0
      redis.call('HSET', l.state_key, 'w', idx, 'c', l.delta, 'p', p, 'l', w)
      redis.call('PEXPIRE', l.state_key, reset + w)
      return 1, l.delta, reset
    else
      return 0, 0, 0
    end
    local after = math.max(count + l.delta, 0)
    if after == count then
      return 0, count, reset
    end
    redis.call('HSET', l.state_key, name, after)
    return 1, after, reset
  end
}
