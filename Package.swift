// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// TabServer uses no outside Swift packages: only the toolchain's own modules and
// Debian's C libraries through system library targets (see README, "Layout"). Those
// targets hold only module maps and shims for macros; C of our own lives in regular C
// targets (`.c` files and `include/`).
//
// Layers, bottom up (each imports only what is below it):
//   HTTPTypes      request/response values, the `HTTPResponder` seam, settings, log sink
//   HTTPServer     the epoll HTTP/1.1 engine behind `HTTPResponder` (picohttpparser for heads)
//   Web            router, cookies, forms, static files, proxies — on HTTPTypes, not the engine
//   TabServerCore  the tab app: configuration, routes, views, sessions wiring — no engine
//   TabServer      the library product: TabServerCore plus `AppServer`, which runs it on the engine
let package = Package(
    name: "TabServer",
    // Linux only: the engine is built on epoll and glibc. No Apple platform is listed
    // because none builds (`platforms` can only name Apple minimums).
    products: [
        .library(name: "TabServer", targets: ["TabServer"]),
        .library(name: "TabServerProcess", targets: ["ProcessLifecycle"]),
        .executable(name: "tabserver", targets: ["tabserver"]),
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
        .target(name: "HTTPServer", dependencies: ["CLinuxIO", "CPicoHTTPParser", "HTTPTypes"]),
        .target(name: "Gzip", dependencies: ["CZlib"]),
        .target(name: "Crypto", dependencies: ["CCrypto"]),
        .target(name: "SQLite", dependencies: ["CSQLite", "CSQLiteVFS"]),
        .target(name: "Redis", dependencies: ["CHiredis", "Crypto"]),

        // Pure Swift.
        .target(name: "HTTPTypes"),
        .target(name: "Mustache"),
        .target(name: "TabBar"),
        .target(name: "Web", dependencies: ["HTTPTypes", "Gzip", "Crypto"]),
        .target(name: "Sessions", dependencies: ["Crypto", "TabBar", "SQLite", "Redis", "HTTPTypes"]),
        .target(
            name: "TabServerCore",
            dependencies: ["HTTPTypes", "Web", "Sessions", "Mustache", "TabBar", "Crypto", "Redis"]),
        .target(
            name: "TabServer",
            dependencies: [
                "TabServerCore", "HTTPServer", "Sessions", "Mustache", "TabBar", "HTTPTypes", "Web", "Redis",
            ]),
        .target(name: "ProcessLifecycle", dependencies: ["TabServer"]),

        // The demo store: one app built on the library, as any other package would.
        .target(name: "TabServerDemo", dependencies: ["TabServerCore"]),
        .executableTarget(name: "tabserver", dependencies: ["TabServer", "TabServerDemo", "ProcessLifecycle"]),

        // Shared test helpers (in-process client, raw sockets, fixtures): no engine.
        .target(name: "TestSupport", dependencies: ["TabServerCore", "HTTPTypes", "Web"]),

        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(name: "TabBarTests", dependencies: ["TabBar"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTypes", "TestSupport"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "Gzip"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "HTTPTypes", "Gzip"]),
        .testTarget(
            name: "SessionsTests",
            dependencies: ["Sessions", "Crypto", "TabBar", "TestSupport", "Redis", "SQLite", "SQLitePowerLoss"]),
        .testTarget(
            name: "TabServerTests",
            dependencies: [
                "TabServer", "TabServerCore", "TabServerDemo", "TestSupport", "HTTPTypes", "Web", "TabBar", "Gzip",
                "Sessions", "SQLite", "Redis",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
