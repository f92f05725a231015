-- wrk script of the HTTP benchmark: every request names one of 10,000 users at random, as the
-- "user" parameter of the path wrk was given. Each wrk thread draws from its own seed.

local users = 10000
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  math.randomseed(os.time() * 100 + id)
end

function request()
  return wrk.format("GET", wrk.path .. "?user=user-" .. math.random(users))
end
