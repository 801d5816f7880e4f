// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// One job of `BlockingPool.runCancellable`: whoever comes first, the job finishing or
/// its task being cancelled, resumes the awaiting task, once. A job cancelled before its
/// lane reached it is never run; one cancelled while it runs finishes on its thread (a
/// blocking call cannot be stopped from outside) and its result is dropped.
final class CancellableJob<Result: Sendable>: Sendable {
    private enum Stage {
        /// Not yet given its continuation.
        case idle
        case waiting(UnsafeContinuation<Result, any Error>)
        case running(UnsafeContinuation<Result, any Error>)
        case cancelled
        case finished
    }

    private let stage = Mutex<Stage>(.idle)

    /// Gives the job the continuation to resume; false when it was cancelled already.
    func attach(_ continuation: UnsafeContinuation<Result, any Error>) -> Bool {
        stage.withLock { stage in
            guard case .idle = stage else { return false }
            stage = .waiting(continuation)
            return true
        }
    }

    /// Called on the lane before the work: false when it was cancelled while waiting.
    func start() -> Bool {
        stage.withLock { stage in
            guard case .waiting(let continuation) = stage else { return false }
            stage = .running(continuation)
            return true
        }
    }

    /// The work's outcome (or the pool refusing it), handed over unless cancelled first.
    func finish(_ outcome: Swift.Result<Result, any Error>) {
        let continuation = stage.withLock { stage -> UnsafeContinuation<Result, any Error>? in
            switch stage {
            case .waiting(let continuation), .running(let continuation):
                stage = .finished
                return continuation
            case .idle, .cancelled, .finished:
                return nil
            }
        }
        continuation?.resume(with: outcome)
    }

    /// The task was cancelled: its await ends at once with `CancellationError`.
    func cancel() {
        let continuation = stage.withLock { stage -> UnsafeContinuation<Result, any Error>? in
            switch stage {
            case .idle:
                stage = .cancelled
                return nil
            case .waiting(let continuation), .running(let continuation):
                stage = .cancelled
                return continuation
            case .cancelled, .finished:
                return nil
            }
        }
        continuation?.resume(throwing: CancellationError())
    }
}
