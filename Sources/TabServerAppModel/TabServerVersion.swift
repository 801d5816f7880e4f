// SPDX-License-Identifier: Apache-2.0
/// This release of TabServer, as `tabserver --version` prints it and `/metrics` reports it
/// (`tabserver_build_info{version="…"}`); CHANGELOG.md has a section for each.
public enum TabServerVersion {
    /// The version, `major.minor.patch` (Semantic Versioning).
    public static let current = "0.4.0"
}
