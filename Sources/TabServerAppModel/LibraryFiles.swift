// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Where TabServer's own templates, static files and locales are (its `Templates/`,
/// `Public/` and `Locales/`), so an app's `main` need not say: the first of
///
/// 1. `$TABSERVER_ROOT`, when set;
/// 2. the working directory, when it holds them (the demo, a Docker image's `/app`);
/// 3. `share/tabserver` beside the executable's folder (an install: `/usr/local/bin` and
///    `/usr/local/share/tabserver`);
/// 4. the package's own checkout, where SwiftPM built the library from (an app under
///    development, whose dependency sits in `.build/checkouts`, or beside it).
///
/// An app's own files are laid over these (`publicOverlays`, `templateOverlays`).
public enum LibraryFiles {
    /// The folder holding `Templates/`, `Public/` and `Locales/` ("." for the working
    /// directory).
    public static let root: String = resolveRoot()

    /// `name` (e.g. "Templates") in `root`, relative when `root` is the working directory.
    public static func path(_ name: String) -> String {
        root == "." ? name : root + "/" + name
    }

    package static func resolveRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let root = environment["TABSERVER_ROOT"], !root.isEmpty { return root }
        if holdsLibraryFiles(".") { return "." }
        if let executable = executableFolder() {
            let installed = executable + "/../share/tabserver"
            if holdsLibraryFiles(installed) { return installed }
        }
        if holdsLibraryFiles(checkout) { return checkout }
        return "."
    }

    /// Whether `folder` has TabServer's layout and stylesheet.
    package static func holdsLibraryFiles(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/Templates/layout.mustache")
            && FileManager.default.fileExists(atPath: folder + "/Public/css/app.css")
    }

    /// The package's root as it was built: this file is Sources/TabServerAppModel/.
    package static let checkout: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    private static func executableFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
