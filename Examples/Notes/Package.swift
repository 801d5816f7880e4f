// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// A three-tab app (Notes / Search / Settings) built on the TabServer library, as any
// other package would: it depends on the package, not on its sources.
let package = Package(
    name: "Notes",
    dependencies: [.package(name: "TabServer", path: "../..")],
    targets: [
        .executableTarget(
            name: "Notes",
            dependencies: [
                .product(name: "TabServer", package: "TabServer"),
                .product(name: "TabServerProcess", package: "TabServer"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
