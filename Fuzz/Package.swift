// swift-tools-version:6.1
import Foundation
import PackageDescription

// libFuzzer over MIGA's parsers (see Sources/MIGAFuzzing/FuzzTarget.swift).
// A package of its own, so that the sanitizers' flags never reach the
// product's build: `make fuzz` builds it with -sanitize=fuzzer,address.

// The product's package is the folder above; its identity is that folder's name.
let product = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let sanitizers = "-sanitize=fuzzer,address"

let package = Package(
    name: "miga-fuzz",
    dependencies: [.package(path: product.path)],
    targets: [
        .executableTarget(
            name: "miga-fuzz",
            dependencies: [.product(name: "MIGAFuzzing", package: product.lastPathComponent)],
            // The entry point is libFuzzer's driver, called from our own main.
            swiftSettings: [.unsafeFlags([sanitizers, "-parse-as-library"])],
            // lld: the gold linker fails on the sanitized debug information.
            linkerSettings: [.unsafeFlags([sanitizers, "-use-ld=lld"])]
        ),
    ]
)
