#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body` with SIGPIPE blocked on this thread and discards a SIGPIPE it raised.
///
/// hiredis writes with `write(2)`, and a write to a socket the server has reset raises
/// SIGPIPE, whose default action ends the process. Ignoring SIGPIPE process-wide is the
/// application's decision, not a library's, so this blocks it for the calling thread
/// only, for the length of one command (the same technique libcurl uses). A SIGPIPE that
/// was already pending before the call is left alone.
func withSIGPIPEBlocked<Result>(_ body: () -> Result) -> Result {
    var pipeOnly = sigset_t()
    sigemptyset(&pipeOnly)
    sigaddset(&pipeOnly, SIGPIPE)
    var pending = sigset_t()
    sigpending(&pending)
    let wasPending = sigismember(&pending, SIGPIPE) == 1
    var previousMask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeOnly, &previousMask)
    defer {
        if !wasPending {
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                #if canImport(Glibc)
                    var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                    _ = sigtimedwait(&pipeOnly, nil, &noWait)
                #else
                    var signal: Int32 = 0
                    _ = sigwait(&pipeOnly, &signal)
                #endif
            }
        }
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
    return body()
}
