// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel

#if canImport(Glibc)
    import Glibc
#endif

/// The process environment as a dictionary, for `AppConfiguration.parse`.
public enum ProcessEnvironment {
    /// Every `NAME=value` entry of `environ`.
    public static func current() -> [String: String] {
        var environment: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return environment
    }
}
