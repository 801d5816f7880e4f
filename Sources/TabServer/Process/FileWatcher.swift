// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Synchronization
import TabServerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Watches folders (with every folder below them) and single files for saved changes, with
/// the kernel's inotify: no polling. Editors save in several ways (writing the file in
/// place, or writing a new file and renaming it over the old one, sometimes with a backup
/// file first), so a file counts as changed when it is closed after writing, moved or
/// renamed into place, created, deleted or has its attributes touched; the changes of a
/// short burst (`settle`) are handed over together, once, on the watcher's own thread.
/// Editors' own files (a name starting with `.` or ending in `~`, `.swp`, `.tmp`) are
/// left out.
///
/// ```swift
/// let watcher = try FileWatcher(paths: ["Templates", "Public", "Locales", "tabs.json"]) { changed in
///     print("saved:", changed)
/// }
/// watcher.stop()
/// ```
public final class FileWatcher: Sendable {
    /// Why the watcher could not start.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    private let descriptor: Int32
    /// Folders being watched, by watch descriptor.
    private let folders = Mutex<[Int32: String]>([:])
    /// Single files watched through their folder: the folder's path and the files' names.
    private let files: [String: Set<String>]
    private let stopped = Atomic<Bool>(false)
    private let settle: Duration
    private let changed: @Sendable ([String]) -> Void
    /// Set once the thread has ended.
    private let ended = Atomic<Bool>(false)

    /// Starts watching `paths` (folders, recursively, and files); `changed` gets the paths of
    /// each burst of changes (as they are below the watched path: `Templates/tabs/music.mustache`).
    /// Throws when inotify cannot be set up or no path can be watched.
    public init(
        paths: [String], settle: Duration = .milliseconds(30), changed: @escaping @Sendable ([String]) -> Void
    ) throws(Failure) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw Failure(description: "inotify: \(String(cString: strerror(errno)))") }
        self.descriptor = descriptor
        self.settle = settle
        self.changed = changed
        var files: [String: Set<String>] = [:]
        var folderPaths: [String] = []
        for path in paths {
            guard let kind = Self.kind(of: path) else { continue }
            if kind == .typeDirectory {
                folderPaths.append(Self.trimmed(path))
            } else if let slash = path.lastIndex(of: "/") {
                files[String(path[..<slash]), default: []].insert(String(path[path.index(after: slash)...]))
            } else {
                files[".", default: []].insert(path)
            }
        }
        self.files = files
        for folder in folderPaths { addTree(folder) }
        for folder in files.keys { add(folder) }
        guard !folders.withLock({ $0.isEmpty }) else {
            close(descriptor)
            throw Failure(description: "none of \(paths.joined(separator: ", ")) can be watched")
        }
        // Its own worker thread: inotify is read blocking (with a short poll, so `stop` is
        // seen), which no task may do.
        WorkerThread.detach { self.run() }
    }

    /// The longest a change waits for the burst it is part of to end.
    static let longest: Duration = .milliseconds(80)

    /// Stops watching; the thread ends within a tenth of a second.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// What inotify tells of a folder: the ways a file is saved, and folders coming and going.
    private static let events =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
        | UInt32(IN_ATTRIB)

    private func add(_ folder: String) {
        let watch = inotify_add_watch(descriptor, folder, Self.events)
        guard watch >= 0 else { return }
        folders.withLock { $0[watch] = folder }
    }

    /// Watches `folder` and every folder below it (not following links).
    private func addTree(_ folder: String) {
        add(folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !Self.isEditorFile(name) && Self.kind(of: folder + "/" + name) == .typeDirectory {
            addTree(folder + "/" + name)
        }
    }

    /// Reads events until stopped; a burst is handed over `settle` after its last event.
    private func run() {
        defer {
            close(descriptor)
            ended.store(true, ordering: .relaxed)
        }
        var pending: [String] = []
        var quietSince = ContinuousClock.now
        var firstPending = ContinuousClock.now
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        while !stopped.load(ordering: .relaxed) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let wait = pending.isEmpty ? 100 : max(1, Int32(Self.milliseconds(settle - (.now - quietSince))))
            if poll(&poller, 1, min(100, wait)) > 0 {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count > 0 {
                    let found = paths(in: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                    if pending.isEmpty && !found.isEmpty { firstPending = .now }
                    pending += found
                    quietSince = .now
                }
            }
            // A burst is handed over once quiet, or after `longest` while writes go on.
            let now = ContinuousClock.now
            if !pending.isEmpty, now - quietSince >= settle || now - firstPending >= Self.longest {
                var seen = Set<String>()
                let burst = pending.filter { seen.insert($0).inserted }
                pending.removeAll()
                changed(burst)
            }
        }
    }

    /// The changed paths of a read's events (new folders are watched as they come).
    private func paths(in bytes: UnsafeRawBufferPointer) -> [String] {
        var found: [String] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.count {
            let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let nameBytes = bytes[(offset + header)..<min(bytes.count, offset + header + Int(event.len))]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            offset += header + Int(event.len)
            guard !name.isEmpty, !Self.isEditorFile(name), let folder = folders.withLock({ $0[event.wd] }) else {
                continue
            }
            if let watched = files[folder], !watched.contains(name), !isWatchedTree(folder) { continue }
            let path = folder == "." ? name : folder + "/" + name
            if event.mask & UInt32(IN_ISDIR) != 0 {
                if event.mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 { addTree(path) }
                continue
            }
            found.append(path)
        }
        return found
    }

    /// Whether `folder` is watched as a whole (not only for single files in it).
    private func isWatchedTree(_ folder: String) -> Bool { files[folder] == nil }

    /// Names editors use for their own files while saving, never the app's.
    static func isEditorFile(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx")
            || name.hasSuffix(".tmp") || name == "4913"
    }

    /// What is at `path` (a link is a link: it is not followed), nil for nothing.
    private static func kind(of path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        max(0, duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
