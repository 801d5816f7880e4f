// SPDX-License-Identifier: Apache-2.0
/// Why a tab model was refused (by `TabModelHolder.replaceModel` or when the tab file
/// is loaded): the tab, and what it lacks, in words that say what to fix.
public struct TabModelError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The id of the tab at fault (nil when the model as a whole is at fault).
    public let tabID: String?
    /// What is wrong ("unknown icon 'x.svg' (no Public/icons/x.svg)").
    public let reason: String

    public init(tabID: String?, reason: String) {
        self.tabID = tabID
        self.reason = reason
    }

    public var description: String { tabID.map { "tab '\($0)': \(reason)" } ?? reason }
}
