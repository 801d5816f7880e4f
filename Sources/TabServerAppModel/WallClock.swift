// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// Seconds since 1970 from the system clock.
@Sendable public func wallClockSeconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec)
}
