-- The coalesced script of the fast path alone: several calls in fixed_window_fast.lua's layout,
-- each decided as it would be on its own, one after the other, as batch.lua decides them; for a run
-- whose every call takes the fast path, without the general path's definitions.
--
-- KEYS     each call's state key, one after the other
-- ARGV     each call's arguments ('f' or 't' first), one after the other
-- Reply    each call's three integers, one after the other; a call that fails replies with the
--          error's text, then zeros to its reply's length, as batch.lua's
local reply, ko, ao = {}, 0, 0
local args = #ARGV
while ao < args do
  local size = #reply
  local ok, used = pcall(fixed_window_fast, ko, ao, reply)
  if not ok then
    failed_call(reply, size, used, 3)
    used = (ARGV[ao + 1] == 't') and 6 or 4
  end
  ko = ko + 1
  ao = ao + used
end
return reply
