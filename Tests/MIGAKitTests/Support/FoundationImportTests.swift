import Foundation
import Testing

/// No module of MIGA's binary imports Foundation, not even one type of it:
/// the installed binary links the Swift runtime in, and an import of
/// Foundation links all of it and ICU, most of the binary's size and of what
/// the loader relocates at every launch. FoundationEssentials has what MIGA
/// uses; time zones come from the C library (`LocalZone`).
@Suite struct FoundationImportTests {
    /// Every Swift file of the vendored TOMLKit, by path from the package's folder.
    static let vendored: [String: String] = {
        let top = SourceSizeTests.sources.deletingLastPathComponent()
        return SourceScan.swiftFiles(under: top.appendingPathComponent("Vendor/TOMLKit/Sources"), namedFrom: top)
    }()

    /// Whether a line imports Foundation: `import Foundation`, `import struct Foundation.Data`.
    static func importsFoundation(_ line: Substring) -> Bool {
        let words = line.split(separator: " ")
        guard words.contains("import"), let module = words.last?.split(separator: ".").first else { return false }
        return module == "Foundation"
    }

    @Test func no_source_file_imports_foundation() {
        let importing = SourceSizeTests.files.merging(Self.vendored) { first, _ in first }.compactMap { path, text in
            text.split(separator: "\n").contains(where: Self.importsFoundation) ? path : nil
        }
        #expect(Self.vendored.count > 20)
        #expect(importing.sorted() == [])
    }

    @Test func an_import_of_one_type_of_foundation_counts() {
        #expect(Self.importsFoundation("import struct Foundation.Data"))
        #expect(Self.importsFoundation("import Foundation"))
        #expect(!Self.importsFoundation("import FoundationEssentials"))
        #expect(!Self.importsFoundation("import struct FoundationEssentials.Data"))
    }
}
