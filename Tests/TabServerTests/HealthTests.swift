// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTesting
import Testing

@Suite("Health and readiness")
struct HealthTests {
    @Test("without a base path /healthz and /readyz answer 200")
    func atRoot() async throws {
        let client = TestClient(try makeApp().responder)
        await #expect(client.get("/healthz").status == 200)
        await #expect(client.get("/readyz").status == 200)
        await #expect(client.get("/readyz").body == "ready\n")
    }

    @Test("with --base-path /app they answer at the root and under the base path")
    func underBasePath() async throws {
        let client = TestClient(try makeApp { $0.basePath = "/app" }.responder)
        for path in ["/healthz", "/readyz", "/app/healthz", "/app/readyz"] {
            await #expect(client.get(path).status == 200, "\(path)")
        }
        // Only the health paths are special at the root: the rest stays inside /app.
        await #expect(client.get("/tabs/music").status == 404)
        await #expect(client.get("/app/tabs/music").status == 200)
        await #expect(client.get("/healthz/x").status == 404)
    }
}
