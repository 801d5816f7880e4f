// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP

/// What makes a page of a tab: the request, and the context with the tab, the location,
/// what the page's pattern captured and the visitor. Nil is a 404 that still shows the
/// bar; a thrown `HTTPResponseError` its own page; any other error a 500, logged.
public typealias TabPageMaker = nonisolated(nonsending) @Sendable (HTTPRequest, RequestContext) async throws -> TabPage?
