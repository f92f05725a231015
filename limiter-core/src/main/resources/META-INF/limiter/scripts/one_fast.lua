-- The fast path's script for one call on its own, in fixed_window_fast.lua's layout.
local reply = {}
fixed_window_fast(0, 0, reply)
return reply
