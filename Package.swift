// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "miga",
    products: [
        .executable(name: "miga", targets: ["miga"]),
        // For the fuzz targets in Fuzz/, which build the library apart with sanitizers.
        .library(name: "MIGAKit", targets: ["MIGAKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "miga",
            dependencies: [
                "MIGACore",
                "MIGAKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "MIGAKit",
            dependencies: [
                "MIGACore",
                "CLibnotify",
                "MIGAResources",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // The bottom layer: MIGA's domain types and rules (kinds, rules, local
        // days, the effect, records) and what every layer uses (text, files,
        // clocks, errors). It depends on no other target of the package.
        .target(name: "MIGACore"),
        // The quote bank and other data, compiled into the binary so that an
        // installed `miga` is one self-contained file (no resource bundle to lose).
        .target(
            name: "MIGAResources",
            path: "Resources",
            resources: [.embedInCode("quotes.txt")]
        ),
        // libnotify's interface; the library itself is opened when a
        // notification is sent (see Sources/CLibnotify/module.modulemap).
        .systemLibrary(
            name: "CLibnotify",
            path: "Sources/CLibnotify"
        ),
        .testTarget(
            name: "MIGACoreTests",
            dependencies: ["MIGACore"]
        ),
        .testTarget(
            name: "MIGAKitTests",
            dependencies: ["MIGACore", "MIGAKit"],
            // Read at run time from beside the tests, not bundled.
            exclude: ["Gateway/__Snapshots__", "Stats/__Snapshots__", "Setup/__Snapshots__", "Hub/__Snapshots__"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["MIGACore", "MIGAKit", "miga"]
        ),
    ]
)
