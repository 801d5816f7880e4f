// swift-tools-version:6.0
import PackageDescription

// TabServer uses no outside Swift packages: only the toolchain's own modules and
// Debian's C libraries through system library targets (see README, "Layout").
let package = Package(
    name: "TabServer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tabserver", targets: ["tabserver"])
    ],
    targets: [
        // C libraries from Debian, each imported only by its own wrapper target.
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
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

        // Wrappers: the only places that import the C modules.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(name: "Gzip", dependencies: ["CZlib"]),
        .target(name: "Crypto", dependencies: ["CCrypto"]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "Redis", dependencies: ["CHiredis", "Crypto"]),

        // Pure Swift.
        .target(name: "Mustache"),
        .target(name: "TabBar"),
        .target(name: "Web", dependencies: ["HTTPServer", "Gzip", "Crypto"]),
        .target(name: "Sessions", dependencies: ["Crypto", "TabBar", "SQLite", "Redis"]),
        .target(
            name: "TabServer",
            dependencies: ["HTTPServer", "Web", "Sessions", "Mustache", "TabBar", "Crypto"]),
        .executableTarget(name: "tabserver", dependencies: ["TabServer"]),

        // Shared test helpers (in-process client, live server harness).
        .target(name: "TestSupport", dependencies: ["TabServer", "HTTPServer", "Web"]),

        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(name: "TabBarTests", dependencies: ["TabBar"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "Gzip"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "HTTPServer", "Gzip"]),
        .testTarget(
            name: "SessionsTests", dependencies: ["Sessions", "Crypto", "TabBar", "TestSupport", "Redis", "SQLite"]),
        .testTarget(
            name: "TabServerTests",
            dependencies: ["TabServer", "TestSupport", "HTTPServer", "Web", "TabBar", "Gzip", "Sessions", "SQLite"]),
    ],
    swiftLanguageModes: [.v6]
)
