// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// TabServer uses no outside Swift packages: only the toolchain's own modules and
// Debian's C libraries through system library targets (see docs/swift-api.md). Those
// targets hold only module maps and shims for macros; C of our own lives in regular C
// targets (`.c` files and `include/`).
//
// Layers, bottom up (each imports only what is below it); every module is prefixed
// `TabServer` so none clashes with a well-known package:
//   TabServerJSON           JSON as bytes: the string escaper, the JSON routes' encoder
//   TabServerHTTP           request/response values, the `HTTPResponder` seam, the server's settings, log sink
//   TabServerCrypto         OpenSSL: hashes, HMAC, random, P-256, AES-GCM; TLS contexts and non-blocking sessions
//   TabServerHTTP2          libnghttp2 for the engine: an HTTP/2 server session fed and drained as bytes
//   TabServerEngine         the epoll HTTP/1.1 and HTTP/2 engine behind `HTTPResponder` (picohttpparser, TLS, h2)
//   TabServerWeb            router, middleware, bodies, cookies, static files, proxies — not the engine
//   TabServerSessions       sessions, the store protocol and registry, live updates to open pages; the SQLite
//                           store (with its online backup) and the Redis store in targets of their own
//   TabServerAppModel       what every part of an app reads: configuration, the tab model, pages' values, errors
//   (features)              TabServerViews (pages, languages, install and offline), TabServerPush:
//                           one feature each, below the core
//   TabServerCore           the tab app's request path: routes, request context, pages and actions — no engine
//   TabServer               the library product: TabServerCore plus `AppServer`, which runs it on the engine
let package = Package(
    name: "TabServer",
    // Linux only: the engine is built on epoll and glibc. No Apple platform is listed
    // because none builds (`platforms` can only name Apple minimums).
    products: [
        // The library an app builds on: `import TabServer`.
        .library(name: "TabServer", targets: ["TabServer"]),
        // Sessions shared by several instances in Redis (links hiredis): only for apps that use it.
        .library(name: "TabServerRedisSessions", targets: ["TabServerRedisSessions"]),
        // The SQLite wrapper, for an app's own tables.
        .library(name: "TabServerSQLite", targets: ["TabServerSQLite"]),
        // An app's tests: one client in-process or over a socket, fixtures, real servers.
        .library(name: "TabServerTesting", targets: ["TabServerTesting"]),
        .executable(name: "tabserver", targets: ["TabServerCommand"]),
    ],
    targets: [
        // C libraries from Debian, each imported only by its own wrapper target.
        .systemLibrary(
            name: "CPicoHTTPParser", pkgConfig: "libh2o-evloop",
            providers: [.apt(["libh2o-evloop-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CSSL", pkgConfig: "libssl",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CNGHTTP2", pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CHiredis", pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]),

        // C of our own, each imported only by the wrapper beside it.
        // epoll, accept4, pipe2, memfd and sendfile for the engine (part of the C library; no package).
        .target(name: "CLinuxIO"),
        // The WAL write-merging VFS the SQLite store opens its file through.
        .target(name: "CSQLiteVFS", dependencies: ["CSQLite"]),
        // For tests only: a VFS in memory that simulates power loss, and its Swift wrapper.
        .target(name: "CSQLitePowerLossVFS", dependencies: ["CSQLite"]),
        .target(name: "SQLitePowerLoss", dependencies: ["CSQLitePowerLossVFS"]),

        // Wrappers: the only places that import the C modules.
        .target(
            name: "TabServerEngine",
            dependencies: [
                "CLinuxIO", "TabServerHTTP", "TabServerHTTP1", "TabServerCrypto", "TabServerHTTP2", "TabServerThreads",
            ]),
        // HTTP/1.1 heads (picohttpparser) and chunked bodies, strictly; no picohttpparser type leaves it.
        .target(name: "TabServerHTTP1", dependencies: ["CPicoHTTPParser", "TabServerHTTP"]),
        // HTTP/2 (libnghttp2): one server session per connection, bytes in and out; no nghttp2 type leaves it.
        .target(name: "TabServerHTTP2", dependencies: ["CNGHTTP2"]),
        .target(name: "TabServerGzip", dependencies: ["CZlib"]),
        // OpenSSL: libcrypto's hashes, HMAC, CSPRNG, and for Web Push P-256 (ECDH, ES256) and
        // AES-128-GCM; libssl's TLS (TLS/: contexts from PEM files, non-blocking sessions, server
        // and client). No OpenSSL type leaves it.
        .target(name: "TabServerCrypto", dependencies: ["CCrypto", "CSSL"]),
        .target(name: "TabServerSQLite", dependencies: ["CSQLite", "CSQLiteVFS"]),

        // Pure Swift.
        // The server's worker threads and bounded waits (no dependency: every layer may use them).
        .target(name: "TabServerThreads"),
        // JSON written as bytes: the one string escaper, and the JSON routes' encoder.
        .target(name: "TabServerJSON"),
        .target(name: "TabServerHTTP", dependencies: ["TabServerThreads", "TabServerJSON"]),
        .target(name: "TabServerRedisConfiguration"),
        .target(name: "TabServerMustache"),
        .target(name: "TabServerTabBar"),
        .target(
            name: "TabServerWeb", dependencies: ["TabServerHTTP", "TabServerGzip", "TabServerCrypto", "TabServerJSON"]),
        .target(
            name: "TabServerSessions",
            dependencies: [
                "TabServerCrypto", "TabServerTabBar", "TabServerHTTP", "TabServerThreads",
                "TabServerRedisConfiguration",
            ]),
        .target(
            name: "TabServerSQLiteSessions",
            dependencies: [
                "TabServerCrypto", "TabServerHTTP", "TabServerSessions", "TabServerSQLite", "TabServerThreads",
            ]),
        // What every part of an app reads: its configuration, its tab model and where it is
        // defined, the pages' values, start-up errors, the library's own paths; and what every
        // part counts (Metrics/: counters, latency histograms, `/metrics` in Prometheus' format).
        .target(
            name: "TabServerAppModel",
            dependencies: [
                "TabServerHTTP", "TabServerWeb", "TabServerSessions", "TabServerTabBar", "TabServerMustache",
            ]),
        // What the browser gets: the pages' HTML (the layout and bar around a tab's page,
        // More, the error pages, their caches), in the visitor's language (one JSON file
        // each, one chosen per request), and what installs the app and keeps it offline
        // (the web app manifest, the service worker, the offline cache key).
        .target(
            name: "TabServerViews",
            dependencies: [
                "TabServerAppModel", "TabServerHTTP", "TabServerWeb", "TabServerSessions", "TabServerTabBar",
                "TabServerMustache", "TabServerThreads", "TabServerCrypto", "TabServerJSON",
            ]),
        // Web Push: the protocol (VAPID of RFC 8292, payload encryption of RFC 8291 and
        // RFC 8188, subscriptions, Declarative Web Push payloads), posting messages to push
        // services (HTTPS with libssl's client side, SSRF-safe addresses, one deadline a
        // message, a bounded queue on threads of its own), and the app's push feature (its
        // keys, a visitor's and a user's devices).
        .target(
            name: "TabServerPush",
            dependencies: [
                "CLinuxIO", "TabServerAppModel", "TabServerCrypto", "TabServerHTTP", "TabServerJSON",
                "TabServerSessions", "TabServerThreads",
            ]),
        .target(
            name: "TabServerCore",
            dependencies: [
                "TabServerHTTP", "TabServerWeb", "TabServerSessions", "TabServerSQLiteSessions", "TabServerMustache",
                "TabServerTabBar", "TabServerCrypto", "TabServerRedisConfiguration", "TabServerThreads",
                "TabServerGzip",
                "TabServerAppModel", "TabServerViews", "TabServerPush",
                "TabServerJSON",
            ]),
        // Sessions in Redis: the client (Client/: hiredis on threads of its own, Sentinel, Cluster;
        // the only importer of CHiredis, no hiredis pointer leaves it), the session store (Store/)
        // and the live-event relays between instances (Relay/).
        .target(
            name: "TabServerRedisSessions",
            dependencies: [
                "CHiredis", "TabServerSessions", "TabServerCrypto", "TabServerHTTP", "TabServerRedisConfiguration",
                "TabServerThreads",
            ]),
        .target(
            name: "TabServer",
            dependencies: [
                "TabServerCore", "TabServerEngine", "TabServerHTTP", "TabServerMustache",
                "TabServerSessions", "TabServerTabBar", "TabServerWeb", "TabServerPush", "TabServerAppModel",
                "TabServerViews", "TabServerThreads", "TabServerJSON",
            ]),

        // The demo (`tabserver`): the demo store (Demo/), one app built on the library as any
        // other package would, with Redis sessions available; `tabserver backup DEST`.
        .executableTarget(
            name: "TabServerCommand",
            dependencies: ["TabServer", "TabServerRedisSessions"]),

        // The tutorial "Your first tab app" (Examples/FirstTabApp, a package of its own
        // too): built and tested here, so the docs' code always compiles and works.
        .executableTarget(
            name: "FirstTabApp", dependencies: ["TabServer"],
            path: "Examples/FirstTabApp/Sources/FirstTabApp"),

        // What an app's tests use (product TabServerTesting): the test client in-process or
        // over a socket, its responses, a raw connection, fixtures, waitUntil.
        .target(
            name: "TabServerTesting",
            dependencies: [
                "TabServer", "TabServerCore", "TabServerAppModel", "TabServerHTTP", "TabServerWeb", "TabServerSessions",
            ]),
        // This project's own test support, not a product: launchers for nginx, Caddy,
        // redis-server, Sentinel and a Redis Cluster, child processes, load sockets, a
        // recording push service, a store that interferes, a thread-backed executor.
        .target(
            name: "TabServerTestSupport",
            dependencies: ["TabServerTesting", "TabServerHTTP", "TabServerSessions", "TabServerThreads"],
            path: "Tests/Support"),

        .testTarget(name: "MustacheTests", dependencies: ["TabServerMustache"]),
        .testTarget(name: "TabBarTests", dependencies: ["TabServerTabBar"]),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: [
                "TabServerEngine", "TabServerHTTP", "TabServerHTTP1", "TabServerTesting", "TabServerTestSupport",
                "TabServerWeb",
            ]),
        .testTarget(name: "HTTP2Tests", dependencies: ["TabServerHTTP2"]),
        .testTarget(name: "CryptoTests", dependencies: ["TabServerCrypto", "TabServerGzip"]),
        .testTarget(
            name: "WebPushTests",
            dependencies: [
                "CLinuxIO", "TabServerPush", "TabServerCrypto", "TabServerTesting",
                "TabServerTestSupport",
            ]),
        .testTarget(
            name: "WebTests", dependencies: ["TabServerWeb", "TabServerHTTP", "TabServerGzip", "TabServerJSON"]),
        .testTarget(
            name: "SessionsTests",
            dependencies: [
                "TabServerSessions", "TabServerSQLiteSessions", "TabServerRedisSessions", "TabServerCrypto",
                "TabServerTabBar", "TabServerTesting", "TabServerTestSupport", "TabServerSQLite",
                "SQLitePowerLoss", "TabServerThreads", "TabServerHTTP", "TabServerRedisConfiguration",
            ]),
        .testTarget(
            name: "TabServerTests",
            dependencies: [
                "TabServer", "TabServerCommand", "TabServerCore", "TabServerEngine", "TabServerTesting",
                "TabServerTestSupport", "TabServerHTTP", "TabServerAppModel", "TabServerViews",
                "TabServerWeb",
                "TabServerTabBar", "TabServerGzip", "TabServerSessions", "TabServerSQLiteSessions",
                "TabServerRedisSessions", "TabServerSQLite",
                "TabServerRedisConfiguration", "TabServerPush", "TabServerCrypto",
            ]),
        .testTarget(
            name: "FirstTabAppTests", dependencies: ["FirstTabApp", "TabServer", "TabServerTesting"],
            path: "Examples/FirstTabApp/Tests/FirstTabAppTests"),
    ],
    swiftLanguageModes: [.v6]
)
