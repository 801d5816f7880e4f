// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// "Your first tab app": a package of your own on the TabServer library. (In this
// repository the same sources are also targets of TabServer's own package, so its
// tests compile the tutorial's code on every run.)
let package = Package(
    name: "FirstTabApp",
    dependencies: [.package(name: "TabServer", path: "../..")],
    targets: [
        .executableTarget(
            name: "FirstTabApp",
            dependencies: [.product(name: "TabServer", package: "TabServer")]),
        .testTarget(
            name: "FirstTabAppTests",
            dependencies: ["FirstTabApp", .product(name: "TabServerTesting", package: "TabServer")]),
    ],
    swiftLanguageModes: [.v6]
)
