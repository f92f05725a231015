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
  end
}
