"""Lua scripts: each is one atomic step on keys of a single hash slot."""

from __future__ import annotations

#: Compare-and-set of a game on ``seq``.
#: KEYS: game hash, game log.
#: ARGV: expected seq, state bytes, log entry ("" = none), status, moves, foundation,
#:       now ms, finished (1/0), clean (1/0), active ms (the time played so far).
#: Returns {1, new seq} when written, {0, current seq} when ``seq`` moved on,
#: {-1, 0} when the game does not exist.
MOVE = """
local seq = redis.call('HGET', KEYS[1], 'seq')
if not seq then return {-1, 0} end
if seq ~= ARGV[1] then return {0, tonumber(seq)} end
local new = tonumber(seq) + 1
redis.call('HSET', KEYS[1], 'seq', new, 'state', ARGV[2], 'status', ARGV[4],
           'moves', ARGV[5], 'foundation', ARGV[6], 'updated', ARGV[7])
if ARGV[8] == '1' then redis.call('HSET', KEYS[1], 'finished', ARGV[7]) end
if ARGV[9] == '0' then redis.call('HSET', KEYS[1], 'clean', 0) end
if ARGV[10] then redis.call('HSET', KEYS[1], 'active', ARGV[10]) end
if ARGV[3] ~= '' then redis.call('RPUSH', KEYS[2], ARGV[3]) end
return {1, new}
"""

#: Put a result on a leaderboard.
#: KEYS: board zset, board's player hash. ARGV: player, member, mode.
#: Mode "first" keeps an existing entry; "best" keeps the smaller member.
#: Returns 1 when the entry changed.
BOARD_PUT = """
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  if ARGV[3] == 'first' or old <= ARGV[2] then return 0 end
  redis.call('ZREM', KEYS[1], old)
end
redis.call('ZADD', KEYS[1], 0, ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""

#: Count a finished daily in the player's streak.
#: KEYS: player hash. ARGV: the daily's date, the day before. Returns the streak.
STREAK = """
local day = redis.call('HGET', KEYS[1], 'streak_day')
local streak = tonumber(redis.call('HGET', KEYS[1], 'streak') or '0')
if day and day >= ARGV[1] then return streak end
if day == ARGV[2] then streak = streak + 1 else streak = 1 end
redis.call('HSET', KEYS[1], 'streak', streak, 'streak_day', ARGV[1])
local best = tonumber(redis.call('HGET', KEYS[1], 'best_streak') or '0')
if streak > best then redis.call('HSET', KEYS[1], 'best_streak', streak) end
return streak
"""

#: Count a finished game in the player's statistics, once (its id goes into a set in
#: the same step, so a game is never counted twice, whoever calls again).
#: KEYS: stats hash, counted set.
#: ARGV: game id, slug, won (1/0), moves, time ms, cards founded, ranked daily (1/0),
#:       by the rules (1/0), the daily's date, the day before it, the UTC day it ended.
#: Returns 1 when counted now, 0 when it was counted before.
STATS = """
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
local h = KEYS[1]
local function keep_least(field, value)
  local old = redis.call('HGET', h, field)
  if not old or tonumber(value) < tonumber(old) then redis.call('HSET', h, field, value) end
end
for _, scope in ipairs({ARGV[2], 'all'}) do
  redis.call('HINCRBY', h, 'played:' .. scope, 1)
  redis.call('HINCRBY', h, 'founded:' .. scope, ARGV[6])
  if ARGV[3] == '1' then
    redis.call('HINCRBY', h, 'won:' .. scope, 1)
    keep_least('best_moves:' .. scope, ARGV[4])
    keep_least('best_time:' .. scope, ARGV[5])
  end
  if ARGV[7] == '1' then
    redis.call('HINCRBY', h, 'daily_played:' .. scope, 1)
    if ARGV[3] == '1' then redis.call('HINCRBY', h, 'daily_won:' .. scope, 1) end
  end
end
redis.call('HINCRBY', h, 'day:' .. ARGV[11] .. (ARGV[3] == '1' and ':won' or ':lost'), 1)
if ARGV[7] == '1' and ARGV[8] == '1' then
  local slug = ARGV[2]
  local day = redis.call('HGET', h, 'streak_day:' .. slug)
  if not (day and day >= ARGV[9]) then
    local streak = 1
    if day == ARGV[10] then
      streak = tonumber(redis.call('HGET', h, 'streak:' .. slug) or '0') + 1
    end
    redis.call('HSET', h, 'streak:' .. slug, streak, 'streak_day:' .. slug, ARGV[9])
    local best = tonumber(redis.call('HGET', h, 'best_streak:' .. slug) or '0')
    if streak > best then redis.call('HSET', h, 'best_streak:' .. slug, streak) end
  end
end
return 1
"""

#: Create a game unless its id exists. KEYS: game hash. ARGV: field, value, ...
#: Returns 1 when created, 0 when the id was taken.
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""

#: Add a member to a zset of the newest, after every member already in it (its score
#: is the time given, or one past the newest's when that is not later), and return
#: the members past the newest ARGV[3] (oldest first). KEYS: zset.
#: ARGV: member, time (ms), how many to keep.
KEEP_NEWEST = """
local score = tonumber(ARGV[2])
local top = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if top[2] and tonumber(top[2]) >= score then score = tonumber(top[2]) + 1 end
redis.call('ZADD', KEYS[1], score, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
"""

#: Delete a game still in play that has had no move (nothing in it to keep).
#: KEYS: game hash, game log. Returns 1 when deleted, 0 otherwise.
DROP_UNPLAYED = """
local f = redis.call('HMGET', KEYS[1], 'seq', 'status')
if f[1] ~= '0' or f[2] ~= 'playing' then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
"""

#: Note when race members were seen connected, if the race still exists (a deleted or
#: expired race gets no new key). KEYS: race hash, seen hash. ARGV: member, ms, ...
RACE_SAW = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV))
redis.call('EXPIRE', KEYS[2], 86400)
return 1
"""

#: Delete a race still in its lobby with nobody in it but its creator. KEYS: race
#: hash, members set, seen hash. Returns its join code when deleted, else false.
DROP_LOBBY = """
if redis.call('HGET', KEYS[1], 'status') ~= 'lobby' then return false end
if redis.call('SCARD', KEYS[2]) > 1 then return false end
local code = redis.call('HGET', KEYS[1], 'code')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return code
"""

#: Move a race from one status to another. KEYS: race hash.
#: ARGV: from status, to status, field, value, ... Returns 1 when moved.
RACE_STATUS = """
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
if #ARGV > 2 then redis.call('HSET', KEYS[1], unpack(ARGV, 3)) end
return 1
"""

#: Join a race atomically, so two instances admitting players at once cannot pass the
#: cap nor slip a member in as the race starts. KEYS: race hash, members set.
#: ARGV: player, most members. Returns 1 joined, 0 already a member, -1 the race is
#: not in its lobby, -2 the race is full.
RACE_JOIN = """
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
if redis.call('HGET', KEYS[1], 'status') ~= 'lobby' then return -1 end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return -2 end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], 86400)
return 1
"""

#: The finishing place of a race member (given once). KEYS: race hash, places hash.
#: ARGV: player. Returns the place.
RACE_PLACE = """
local place = redis.call('HGET', KEYS[2], ARGV[1])
if place then return tonumber(place) end
place = redis.call('HINCRBY', KEYS[1], 'placed', 1)
redis.call('HSET', KEYS[2], ARGV[1], place)
return place
"""

#: Delete a key only while it holds the value given (take back a claim of one's own,
#: never one somebody made since). KEYS: the key. ARGV: the value. Returns 1 deleted.
DELETE_IF = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
"""

#: Count one more in a window that ends by itself. KEYS: the counter.
#: ARGV: milliseconds the window has left. Returns the count.
COUNT_IN_WINDOW = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""

#: Count a new open challenge of a player unless they have ``most`` open ones: those
#: expired are dropped first. KEYS: the player's open challenges zset.
#: ARGV: now ms, the new one's expiry ms, its code, most.
#: Returns {1, 0} when counted, {0, when the oldest open one expires} when full.
CHALLENGE_OPEN = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(first[2])}
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) - tonumber(ARGV[1]))
return {1, 0}
"""

#: Let a player watch a race: not a member, and fewer than ``most`` others watching
#: now (watchers not seen since ``fresh`` ms are dropped first).
#: KEYS: race hash, race members set, watchers hash, spectators set.
#: ARGV: player, now ms, fresh ms, most.
#: Returns the watchers now, -1 no such race, -2 a member, -3 full.
RACE_WATCH = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return -2 end
local seen = redis.call('HGETALL', KEYS[3])
for i = 1, #seen, 2 do
  if tonumber(seen[i + 1]) < tonumber(ARGV[3]) then redis.call('HDEL', KEYS[3], seen[i]) end
end
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 0
   and redis.call('HLEN', KEYS[3]) >= tonumber(ARGV[4]) then
  return -3
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[1])
redis.call('EXPIRE', KEYS[3], 86400)
redis.call('EXPIRE', KEYS[4], 86400)
return redis.call('HLEN', KEYS[3])
"""

#: Rate a race once (issue 51): a compare-and-set of the ratings it moves.
#: KEYS: the game's ratings hash, its rating board, the race's outcome key.
#: ARGV: ttl ms, the outcome (JSON), then for each player moved: field, the value read
#:       ("" none), the new value, board score ("" not on the board), registered name.
#: Returns {0, outcome} when the race was rated before (that outcome), {-1, ""} when a
#: rating moved since it was read (read again), {1, outcome} when written now.
RATE = """
local done = redis.call('GET', KEYS[3])
if done then return {0, done} end
for i = 3, #ARGV, 5 do
  if (redis.call('HGET', KEYS[1], ARGV[i]) or '') ~= ARGV[i + 1] then return {-1, ''} end
end
for i = 3, #ARGV, 5 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
  if ARGV[i + 3] ~= '' then redis.call('ZADD', KEYS[2], ARGV[i + 3], ARGV[i + 4]) end
end
redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[1])
return {1, ARGV[2]}
"""

#: Pack a finished game (issue 50): its hash rewritten without its state (so that
#: every value is short and Redis keeps it as one listpack), with ``packed`` 1, its
#: state and log in the packed string, its log list deleted. Atomic, and a no-op on a
#: game packed already, so two instances doing it at once do it once.
#: KEYS: game hash, game log, packed string. ARGV: seq, packed bytes, log length.
#: Returns 1 when packed now, 0 when packed or summarised before, -1 when missing,
#: -2 when the game is in play or changed since it was read (not packed).
COMPACT = """
local f = redis.call('HMGET', KEYS[1], 'seq', 'status', 'packed', 'summary')
if not f[1] then return -1 end
if f[3] == '1' or f[4] == '1' then return 0 end
if f[2] == 'playing' or f[1] ~= ARGV[1] then return -2 end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[3]) then return -2 end
local all = redis.call('HGETALL', KEYS[1])
local kept = {}
for i = 1, #all, 2 do
  if all[i] ~= 'state' then
    kept[#kept + 1] = all[i]
    kept[#kept + 1] = all[i + 1]
  end
end
kept[#kept + 1] = 'packed'
kept[#kept + 1] = '1'
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[1], unpack(kept))
redis.call('SET', KEYS[3], ARGV[2])
return 1
"""

#: Summarise a finished practice game to its result (issue 50): its hash keeps only
#: the fields named in ARGV (its history line), with ``summary`` 1; its state, log and
#: packed string are deleted. Idempotent. KEYS: game hash, game log, packed string.
#: Returns 1 when summarised now, 0 when before, -1 when missing, -2 when the game
#: is no finished practice game (kept whole).
SUMMARISE = """
local f = redis.call('HMGET', KEYS[1], 'status', 'mode', 'summary')
if not f[1] then return -1 end
if f[3] == '1' then return 0 end
if f[1] == 'playing' or f[2] ~= 'practice' then return -2 end
local values = redis.call('HMGET', KEYS[1], unpack(ARGV))
local kept = {}
for i = 1, #ARGV do
  if values[i] then
    kept[#kept + 1] = ARGV[i]
    kept[#kept + 1] = values[i]
  end
end
kept[#kept + 1] = 'summary'
kept[#kept + 1] = '1'
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], unpack(kept))
return 1
"""
