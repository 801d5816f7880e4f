// SPDX-License-Identifier: Apache-2.0
/// The values a route pattern captured, by name.
public struct RouteParameters: Sendable {
    var values: [(name: String, value: String)] = []

    /// No parameters.
    public init() {}

    /// The captured value (a rest parameter may be "").
    public subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }
}
