// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "miga",
    products: [
        .executable(name: "miga", targets: ["miga"]),
        // For the fuzz driver in Fuzz/, which builds the parsers apart with sanitizers.
        .library(name: "MIGAFuzzing", targets: ["MIGAFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // TOMLKit with its Foundation imports made FoundationEssentials (see Vendor/TOMLKit/README.md).
        .package(path: "Vendor/TOMLKit"),
    ],
    targets: [
        .executableTarget(
            name: "miga",
            dependencies: [
                "MIGACore", "MIGATerminal", "MIGAStore", "MIGAConfig", "MIGADesktop", "MIGAKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The app: the launch's pipeline and the pause (Gateway), setup, the
        // hub, the figures and their screens, the quotes, the chores.
        .target(
            name: "MIGAKit",
            dependencies: ["MIGACore", "MIGATerminal", "MIGAStore", "MIGAConfig", "MIGADesktop", "MIGAResources"]
        ),
        // Each parser of outside data with the promises it keeps, for the fuzz
        // driver (Fuzz/) and the replay of its findings: no part of `miga`,
        // which does not depend on it, so none of it ships.
        .target(
            name: "MIGAFuzzing",
            dependencies: ["MIGACore", "MIGAStore", "MIGAConfig", "MIGADesktop", "MIGAKit"]
        ),
        // The desktop: how a launch reaches the gateway (shims, menu entries,
        // D-Bus services, the shell hook, login starts), what went around it
        // (leaks), doctor, and desktop notifications.
        .target(
            name: "MIGADesktop",
            dependencies: ["MIGACore", "MIGATerminal", "MIGAStore", "MIGAConfig", "CLibnotify"]
        ),
        // The person's settings: config.toml read, checked and edited.
        .target(
            name: "MIGAConfig",
            dependencies: ["MIGACore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // The history: one SQLite file, its schema, its transactions, sync and exchange.
        .target(
            name: "MIGAStore",
            dependencies: ["MIGACore", "CSQLite"],
            // Each file uses only what it imports: nothing of Foundation
            // reaches the store through a module that imports it.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // The terminal: the TTY, keys and answers, frames and their renderer, palettes, text cells.
        .target(name: "MIGATerminal", dependencies: ["MIGACore"]),
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
        // SQLite's C interface, which the store's own thin layer wraps
        // (Sources/MIGAStore/SQLite): no Foundation comes with it. The
        // library is opened at the first call (see SQLiteOnDemand.c).
        .target(name: "CSQLite"),
        // libnotify's interface; the library itself is opened when a
        // notification is sent (see Sources/CLibnotify/module.modulemap).
        .systemLibrary(
            name: "CLibnotify",
            path: "Sources/CLibnotify"
        ),
        .testTarget(
            name: "MIGACoreTests",
            dependencies: ["MIGACore", "MIGATestSupport"]
        ),
        // Tests mirror the layers: each target's unit tests depend on it and
        // the layers below, and share the doubles of MIGATestSupport.
        .testTarget(
            name: "MIGATestSupport",
            dependencies: ["MIGACore", "MIGATerminal", "MIGAStore", "MIGAConfig", "MIGADesktop"]
        ),
        .testTarget(
            name: "MIGATerminalTests",
            dependencies: ["MIGACore", "MIGATerminal", "MIGATestSupport"]
        ),
        .testTarget(
            name: "MIGAStoreTests",
            dependencies: ["MIGACore", "MIGAStore", "MIGATestSupport"],
            // A store an earlier miga wrote, read from beside the tests.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "MIGAConfigTests",
            dependencies: ["MIGACore", "MIGAConfig", "MIGATestSupport"]
        ),
        .testTarget(
            name: "MIGADesktopTests",
            dependencies: ["MIGACore", "MIGATerminal", "MIGAStore", "MIGAConfig", "MIGADesktop", "MIGATestSupport"]
        ),
        .testTarget(
            name: "MIGAKitTests",
            dependencies: ["MIGACore", "MIGATerminal", "MIGAStore", "MIGAConfig", "MIGADesktop", "MIGAKit", "MIGATestSupport"],
            // Read at run time from beside the tests, not bundled.
            exclude: ["Gateway/__Snapshots__", "Stats/__Snapshots__", "Setup/__Snapshots__", "Hub/__Snapshots__"]
        ),
        // Every input the fuzzer starts from or once saved, replayed without it.
        .testTarget(
            name: "MIGAFuzzingTests",
            dependencies: ["MIGACore", "MIGAStore", "MIGAConfig", "MIGADesktop", "MIGAKit", "MIGAFuzzing"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["MIGACore", "MIGATerminal", "MIGAStore", "MIGAConfig", "MIGADesktop", "MIGAKit", "MIGATestSupport", "miga"]
        ),
    ]
)
