// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The engine's load, as the app's metrics read it (`openConnections`, `inFlightRequests`).
extension HTTPServer: EngineStatistics {}
