// SPDX-License-Identifier: Apache-2.0
import TabServerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// A task executor with a thread of its own: a test's task that prefers it runs there, so
/// a client that blocks on its socket holds that thread only, never one of the few the
/// cooperative pool has (two on a two-core machine), and several such clients truly run
/// at once. For tests only (`onThreads`).
public final class ThreadExecutor: TaskExecutor, Sendable {
    private let jobs = ExecutorJobQueue()

    /// Starts the thread.
    public init() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let executor = Unmanaged<ThreadExecutor>.fromOpaque(context!).takeRetainedValue()
                executor.jobs.runJobs(on: executor.asUnownedTaskExecutor())
                return nil
            }, context)
        if started == 0 { pthread_detach(thread) } else { Unmanaged<ThreadExecutor>.fromOpaque(context).release() }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        jobs.add(job)
    }

    /// Ends the thread once the jobs given so far have run.
    public func stop() {
        jobs.close()
    }
}

/// Runs `body(index)` for `count` indices at once, each as a task on a thread of its own
/// (`ThreadExecutor`), and returns when all are done: several visitors at once, each with
/// a client that may block on its socket.
///
/// ```swift
/// await onThreads(4) { _ in
///     let client = TestClient(port: server.port)
///     _ = await client.get("/healthz")
/// }
/// ```
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) async -> Void) async {
    let executors = (0..<count).map { _ in ThreadExecutor() }
    await withTaskGroup(of: Void.self) { group in
        for index in 0..<count {
            group.addTask(executorPreference: executors[index]) { await body(index) }
        }
    }
    for executor in executors { executor.stop() }
}

/// Runs `body` as a task on a thread of its own and returns its result: for a test that
/// measures how soon answers come in this process, where the shared pool's few threads,
/// busy with the suites running beside it, would add their own delay to every await.
///
/// ```swift
/// let took = try await onOwnThread { try await measure(client) }
/// ```
public func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result
{
    let executor = ThreadExecutor()
    defer { executor.stop() }
    return try await Task(executorPreference: executor) { try await body() }.value
}
