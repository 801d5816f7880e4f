// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// Where an app's slow pages and actions run (`TabPageLoader`, `TabAction(performing:)`):
/// a task executor on a concurrent Dispatch queue of its own, neither an engine thread
/// nor Swift's cooperative pool. Apps often block inside such work (a synchronous
/// database call); on the cooperative pool, which has one thread per core, a few of
/// those would stall every other task of the process, while Dispatch adds threads for
/// work that blocks.
final class ContentExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "tabserver.content", qos: .userInitiated, attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// The one executor of the process.
    static let shared = ContentExecutor()
}
