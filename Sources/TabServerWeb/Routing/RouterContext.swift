// SPDX-License-Identifier: Apache-2.0
/// What a router needs of the per-request context it hands its handlers: a place for the
/// parameters the matched pattern captured. An app's context (`RequestContext` in
/// TabServerCore) carries much more; the router only fills this in.
public protocol RouterContext: Sendable {
    /// What the matched route's pattern captured.
    var parameters: RouteParameters { get set }
}
