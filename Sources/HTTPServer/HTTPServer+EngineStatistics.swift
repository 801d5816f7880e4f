import HTTPTypes

extension HTTPServer: EngineStatistics {
    /// Client connections open right now, counted by libmicrohttpd's connection
    /// notifications (accepted, closed).
    public var openConnections: Int { engine.openConnections.load(ordering: .relaxed) }
}
