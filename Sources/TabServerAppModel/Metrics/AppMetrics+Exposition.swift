// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

extension AppMetrics {
    /// The media type of Prometheus' text exposition format.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Everything, in the text exposition format. The store is asked for readiness (it
    /// may wait: call this on a worker) and, if it counts without a scan
    /// (`SessionCounting`), for the number of sessions.
    package func exposition(_ sources: MetricsSources) -> String {
        let store = sources.store
        var out = ""
        out.reserveCapacity(8 * 1024)
        out += "# HELP tabserver_build_info The TabServer release serving, as a label; always 1.\n"
        out += "# TYPE tabserver_build_info gauge\n"
        out += "tabserver_build_info{version=\"\(sources.version)\"} 1\n"
        out +=
            "# HELP tabserver_http_requests_total Requests answered by the app, by route pattern, method and status.\n"
        out += "# TYPE tabserver_http_requests_total counter\n"
        for route in routes.indices {
            for method in Self.methods.indices {
                for status in Self.statusLabels.indices {
                    let count = requestCount(route: route, method: method, status: status)
                    guard count > 0 else { continue }
                    out += "tabserver_http_requests_total{route=\"\(Self.escape(routes[route]))\",method=\""
                    out += "\(Self.methods[method])\",status=\"\(Self.statusLabels[status])\"} \(count)\n"
                }
            }
        }
        out += "# HELP tabserver_http_request_duration_seconds Time to produce a response, by route pattern.\n"
        out += "# TYPE tabserver_http_request_duration_seconds histogram\n"
        for route in routes.indices where !durations.isEmpty(route) {
            histogram(
                &out, "tabserver_http_request_duration_seconds", label: "route=\"\(Self.escape(routes[route]))\"",
                durations, route)
        }
        if let engine = engineStatistics {
            Self.single(
                &out, "tabserver_open_connections", "gauge", "Client connections open now.", engine.openConnections)
            Self.single(
                &out, "tabserver_in_flight_requests", "gauge", "Requests being processed now.", engine.inFlightRequests)
            Self.single(
                &out, "tabserver_engine_system_call_errors_total", "counter",
                "Failed system calls on connections (epoll_ctl, 100 Continue).", engine.systemCallErrors)
            Self.single(
                &out, "tabserver_http2_connection_errors_total", "counter",
                "HTTP/2 connections ended on what the client sent (protocol errors, floods, too many resets).",
                engine.http2ConnectionErrors)
            Self.single(
                &out, "tabserver_access_log_dropped_lines_total", "counter",
                "Access-log lines dropped because the log's output could not keep up or failed (a full disk).",
                engine.accessLogDroppedLines)
        }
        let pageCache = sources.pageCache()
        Self.single(
            &out, "tabserver_page_cache_hits_total", "counter",
            "Tab pages answered from the cache of finished pages.", pageCache.hits)
        Self.single(
            &out, "tabserver_page_cache_entries", "gauge", "Finished pages the cache holds now.", pageCache.entries)
        Self.single(
            &out, "tabserver_page_cache_bytes", "gauge", "Bytes the cache of finished pages holds now (bounded).",
            pageCache.bytes)
        Self.single(
            &out, "tabserver_session_undecodable_total", "counter",
            "Stored sessions that could not be decoded (read as absent).", store.undecodableSessions)
        Self.single(
            &out, "tabserver_live_publish_errors_total", "counter",
            "Live events that could not be sent to other instances.", sources.events.relayPublishFailures)
        Self.single(
            &out, "tabserver_hook_events_waiting", "gauge",
            "Requests' hook events queued for the observers, not yet delivered.", sources.hooksWaiting())
        Self.single(
            &out, "tabserver_hook_events_total", "counter",
            "Requests' hook events queued for the observers (none when the app sets no observer hook).",
            sources.hooksQueued())
        Self.single(
            &out, "tabserver_hook_events_dropped_total", "counter",
            "Requests' hook events dropped because the hook queue was full (an observer hook is slow).",
            sources.hooksDropped())
        Self.single(
            &out, "tabserver_work_lane_jobs_total", "counter",
            "Requests run on a work lane (they would have waited on the store or a busy visitor) and metrics scrapes.",
            sources.workLaneJobs())
        if let push = sources.push { out += push() }
        out += "# HELP tabserver_session_store_errors_total Session store calls that failed, by operation.\n"
        out += "# TYPE tabserver_session_store_errors_total counter\n"
        for operation in StoreOperation.allCases {
            out += "tabserver_session_store_errors_total{operation=\"\(operation.label)\"} "
            out += "\(storeErrors.value(operation.rawValue))\n"
        }
        out += "# HELP tabserver_session_store_duration_seconds Session store call latency, by operation.\n"
        out += "# TYPE tabserver_session_store_duration_seconds histogram\n"
        for operation in StoreOperation.allCases where !storeLatency.isEmpty(operation.rawValue) {
            histogram(
                &out, "tabserver_session_store_duration_seconds", label: "operation=\"\(operation.label)\"",
                storeLatency, operation.rawValue)
        }
        // Each shard is asked once a scrape: the store's readiness follows from them.
        let shards = (store.opened as? any ShardedSessionStore)?.shards
        let ready = shards.map { !$0.isEmpty && $0.allSatisfy(\.isUp) } ?? store.checkReady()
        Self.single(
            &out, "tabserver_session_store_up", "gauge",
            "Whether a write to the session store can succeed (1) or not (0).",
            ready ? 1 : 0)
        if let shards {
            out +=
                "# HELP tabserver_session_store_shard_up Whether each shard of the session store can take a write (1) or not (0).\n"
            out += "# TYPE tabserver_session_store_shard_up gauge\n"
            for shard in shards {
                out +=
                    "tabserver_session_store_shard_up{shard=\"\(Self.escape(shard.name))\",slots=\"\(Self.escape(shard.detail))\"} "
                out += "\(shard.isUp ? 1 : 0)\n"
            }
        }
        if let counting = store.opened as? any SessionCounting {
            Self.single(&out, "tabserver_sessions", "gauge", "Sessions held by the store.", counting.sessionCount)
        }
        let admission = store.admission
        Self.single(
            &out, "tabserver_sessions_created_total", "counter", "New sessions stored (users' records included).",
            admission.created)
        Self.single(
            &out, "tabserver_sessions_promoted_total", "counter",
            "Sessions established from probation because their visitor came back.", admission.promoted)
        out += "# HELP tabserver_sessions_evicted_total Sessions evicted to make room, by where they stood.\n"
        out += "# TYPE tabserver_sessions_evicted_total counter\n"
        out += "tabserver_sessions_evicted_total{standing=\"probationary\"} \(admission.evictedProbationary)\n"
        out += "tabserver_sessions_evicted_total{standing=\"established\"} \(admission.evictedEstablished)\n"
        out += "tabserver_sessions_evicted_total{standing=\"user\"} \(admission.evictedUsers)\n"
        Self.single(
            &out, "tabserver_sessions_refused_total", "counter",
            "New sessions not stored because their client was past its budget (served without one).",
            sources.newSessionsRefused())
        return out
    }

    private func histogram(
        _ out: inout String, _ name: String, label: String, _ histograms: LatencyHistograms, _ series: Int
    ) {
        let (cumulative, sum) = histograms.snapshot(series)
        for (index, bound) in LatencyHistograms.boundLabels.enumerated() {
            out += "\(name)_bucket{\(label),le=\"\(bound)\"} \(cumulative[index])\n"
        }
        out += "\(name)_bucket{\(label),le=\"+Inf\"} \(cumulative[cumulative.count - 1])\n"
        out += "\(name)_sum{\(label)} \(sum)\n"
        out += "\(name)_count{\(label)} \(cumulative[cumulative.count - 1])\n"
    }

    /// One sample without labels, with its `HELP` and `TYPE` lines.
    private static func single(_ out: inout String, _ name: String, _ type: String, _ help: String, _ value: Int) {
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
    }

    /// A label value with backslash, double quote and newline escaped, as the format requires.
    static func escape(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
