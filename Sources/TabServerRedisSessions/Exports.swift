// SPDX-License-Identifier: Apache-2.0
// Where a Redis is and how long to wait for it (`RedisConfiguration`, `RedisError`) live
// in a target without hiredis, so an app's configuration can name a Redis without
// linking the client; every user of the client needs them, so they come with it.
@_exported import TabServerRedisConfiguration
