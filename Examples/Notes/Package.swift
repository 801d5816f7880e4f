// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// A three-tab app (Notes / Search / Settings) built on the TabServer library, as any
// other package would: it depends on the package, not on its sources. The app itself is
// the library target NotesKit (its pages, actions and SQLite store), so its tests build
// it in-process; the executable is only its `main`.
let package = Package(
    name: "Notes",
    dependencies: [.package(name: "TabServer", path: "../..")],
    targets: [
        .target(
            name: "NotesKit",
            dependencies: [
                .product(name: "TabServer", package: "TabServer"),
                .product(name: "TabServerSQLite", package: "TabServer"),
            ]),
        .executableTarget(
            name: "Notes",
            dependencies: ["NotesKit", .product(name: "TabServer", package: "TabServer")]),
        .testTarget(
            name: "NotesTests",
            dependencies: [
                "NotesKit",
                .product(name: "TabServer", package: "TabServer"),
                .product(name: "TabServerTesting", package: "TabServer"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
