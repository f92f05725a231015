-- The decision script for one call on its own: KEYS, ARGV and reply as decide.lua documents.
local reply = {}
decide(0, 0, reply)
return reply
