// swift-tools-version:5.9
// TOMLKit 0.6.0 (https://github.com/LebJe/TOMLKit, MIT, see LICENSE) with
// toml++ inside, as MIGA builds it: its imports of Foundation's Data, Date,
// Calendar and DateComponents name FoundationEssentials, where those types
// live, so that no module of the binary imports Foundation (which would link
// it and ICU in whole); toml++ builds without warnings, and without
// exceptions. See README.md.
import PackageDescription

let package = Package(
    name: "TOMLKit",
    products: [
        .library(name: "TOMLKit", targets: ["TOMLKit"]),
    ],
    targets: [
        // toml++ reports a parse error in its result, not by throwing: MIGA's
        // binary carries no unwinding tables (see MIGA's Makefile, RELEASE_FLAGS).
        .target(name: "CTOML", cxxSettings: [.define("TOML_EXCEPTIONS", to: "0")]),
        // Its own warnings (conformances of Swift's integers to
        // CustomDebugStringConvertible) are TOMLKit's to mend, not MIGA's build's.
        .target(name: "TOMLKit", dependencies: ["CTOML"], swiftSettings: [.unsafeFlags(["-suppress-warnings"])]),
    ],
    cLanguageStandard: .c99,
    cxxLanguageStandard: .cxx17
)
