// SPDX-License-Identifier: Apache-2.0
/// What an engine can tell about its own load, read when metrics are collected (not per
/// request). The app sees the engine only through this, so it never links the engine.
///
/// ```swift
/// app.metrics?.attach(engine: server)    // AppServer does this when it starts serving
/// ```
public protocol EngineStatistics: Sendable {
    /// Client connections open right now (idle keep-alive ones included).
    var openConnections: Int { get }
    /// Requests being processed right now.
    var inFlightRequests: Int { get }
    /// System calls on connections that failed since start (epoll_ctl, the interim
    /// `100 Continue`); each such connection was closed.
    var systemCallErrors: Int { get }
    /// HTTP/2 connections the engine ended on what the client sent (a protocol error, a
    /// flood, too many resets), since start.
    var http2ConnectionErrors: Int { get }
    /// Access-log lines dropped since start because the log's descriptor could not keep
    /// up or failed (the loops never wait for it).
    var accessLogDroppedLines: Int { get }
}

extension EngineStatistics {
    /// An engine that does not count them reports none.
    public var systemCallErrors: Int { 0 }

    /// An engine that does not count them reports none.
    public var http2ConnectionErrors: Int { 0 }

    /// An engine without an access log drops none.
    public var accessLogDroppedLines: Int { 0 }
}
