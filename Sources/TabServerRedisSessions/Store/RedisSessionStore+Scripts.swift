// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

/// The Lua scripts behind `RedisSessionStore`. Each runs atomically in Redis, so a
/// check and the write that depends on it cannot be split by another instance's write.
/// Numbers travel as decimal strings; Lua compares them with `tonumber`.
extension RedisSessionStore {
    /// KEYS[1] = session key; ARGV = now, idle, absolute.
    /// Returns {rev, data, promoted}, or nil when missing, not one of ours, or expired
    /// (then deleted). A session on probation (field `p`) is established by the load: its
    /// visitor came back (`promoted` is 1). A key without a TTL (a user's record) keeps none.
    static let loadScript = RedisScript(
        """
        local key = KEYS[1]
        if redis.call('TYPE', key).ok ~= 'hash' then return false end
        local f = redis.call('HMGET', key, 'rev', 'data', 'created', 'seen')
        local created, seen = tonumber(f[3]), tonumber(f[4])
        if not f[1] or not f[2] or not created or not seen then return false end
        local now, idle, absolute = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
        if now - seen > idle or now - created > absolute then
          redis.call('DEL', key)
          return false
        end
        if now > seen then redis.call('HSET', key, 'seen', ARGV[1]) end
        local promoted = redis.call('HDEL', key, 'p')
        if redis.call('TTL', key) ~= -1 then
          local ttl = math.min(idle, absolute - (now - created))
          if ttl < 1 then ttl = 1 end
          redis.call('EXPIRE', key, ttl)
        end
        return {f[1], f[2], promoted}
        """)

    /// KEYS[1] = session key; ARGV = rev, data, created, seen, ttl (0: none, a user's
    /// record), probationary ("1" marks the session on probation, field `p`).
    /// Returns 1 when written, 0 when the key already exists (then nothing changes).
    static let insertScript = RedisScript(
        """
        local key = KEYS[1]
        if redis.call('EXISTS', key) == 1 then return 0 end
        redis.call('HSET', key, 'rev', ARGV[1], 'data', ARGV[2], 'created', ARGV[3], 'seen', ARGV[4])
        if ARGV[6] == '1' then redis.call('HSET', key, 'p', '1') end
        if tonumber(ARGV[5]) > 0 then redis.call('EXPIRE', key, ARGV[5]) end
        return 1
        """)

    /// KEYS[1] = session key; ARGV = expected rev, data, seen, ttl, the expected write
    /// token and the new one. A non-empty expected token marks a write built on this
    /// instance's own write that Redis had not confirmed: it must rest on exactly that
    /// write (field `w`), not on another instance's write that happens to carry the same
    /// revision. The new token (empty for a confirmed write) is stored in `w`. A write
    /// establishes a session on probation; a ttl of 0 (a user's record) removes any.
    /// Returns the new revision, or nil when the key is missing or its revision (or
    /// token) is not the expected one (then nothing changes).
    static let updateScript = RedisScript(
        """
        local key = KEYS[1]
        if redis.call('TYPE', key).ok ~= 'hash' then return false end
        local f = redis.call('HMGET', key, 'rev', 'seen', 'w')
        local rev = tonumber(f[1])
        if not rev or rev ~= tonumber(ARGV[1]) then return false end
        if ARGV[5] ~= '' and f[3] ~= ARGV[5] then return false end
        rev = rev + 1
        local seen = tonumber(f[2])
        local newSeen = tonumber(ARGV[3])
        if seen and seen > newSeen then newSeen = seen end
        redis.call('HSET', key, 'rev', string.format('%d', rev), 'data', ARGV[2], 'seen', string.format('%d', newSeen), 'w', ARGV[6])
        redis.call('HDEL', key, 'p')
        if tonumber(ARGV[4]) > 0 then redis.call('EXPIRE', key, ARGV[4]) else redis.call('PERSIST', key) end
        return rev
        """)
}
