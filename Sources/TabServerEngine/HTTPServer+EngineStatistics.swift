// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The engine's counters, read when metrics are collected (never per request): the
/// loops count into `Engine`'s atomics, and these read them with relaxed ordering.
/// The app's metrics see them through `EngineStatistics`.
extension HTTPServer: EngineStatistics {
    /// Requests being processed right now (head received, answer not yet sent).
    public var inFlightRequests: Int { engine.inFlight.load(ordering: .relaxed) }

    /// Requests finished since start (answered, or abandoned by the client).
    public var completedRequests: Int { engine.completed.load(ordering: .relaxed) }

    /// Connections open right now (within the budget).
    public var openConnections: Int { engine.openConnections.load(ordering: .relaxed) }

    /// Connections refused with 503 since start (over the budget or the per-address limit).
    public var refusedConnections: Int { engine.refusedConnections.load(ordering: .relaxed) }

    /// Requests cut by a deadline (head, body) since start.
    public var timedOutRequests: Int { engine.timedOut.load(ordering: .relaxed) }

    /// System calls on connections that failed since start (epoll_ctl, the interim
    /// `100 Continue`); each such connection was closed, and the failures were logged
    /// once per episode.
    public var systemCallErrors: Int { engine.systemCallErrors.total }

    /// HTTP/2 connections ended on what the client sent (protocol errors, floods, resets).
    public var http2ConnectionErrors: Int { engine.http2ConnectionErrors.load(ordering: .relaxed) }

    /// Access-log lines dropped since start because the log's descriptor could not keep
    /// up (a full disk, a stalled pipe) or failed.
    public var accessLogDroppedLines: Int { engine.accessLog?.droppedLines ?? 0 }

    /// Whether the server is draining (answers carry `Connection: close`).
    public var isDraining: Bool { engine.draining }
}
