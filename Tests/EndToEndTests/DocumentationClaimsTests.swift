import Foundation
import Testing

/// Claims of the documentation about the code and the tests themselves,
/// checked by reading them.
extension DocumentationTests {
    /// docs/TESTING.md: plain `swift test` is the quick run. Every suite in
    /// Tests/EndToEndTests waits for its switch (`.endToEnd`, which `make test`
    /// sets, or `.soak`), but this one, which reads files and asks the built
    /// miga for its help. A suite is a type with tests, declared `@Suite` or not.
    @Test func every_end_to_end_suite_waits_for_its_switch() throws {
        let folder = Self.root.appendingPathComponent("Tests/EndToEndTests")
        var traits: [String: String] = [:]
        var withTests: Set<String> = []
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for suite in text.matches(of: /@Suite(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?\s+(?:final class|class|struct|enum)\s+(\w+)/) {
                traits[String(suite.2)] = suite.1.map(String.init) ?? ""
            }
            // Each test belongs to the type declared last at the top level above it.
            var type: String?
            for line in text.split(separator: "\n") {
                if !line.hasPrefix(" "), !line.hasPrefix("/"), let declared = line.firstMatch(of: /\b(?:class|struct|enum|extension)\s+(\w+)/) {
                    type = String(declared.1)
                }
                // A test outside any type is a suite of its own, which no trait can switch.
                if line.hasPrefix("@Test") { withTests.insert("a test outside any type in \(file)") }
                else if line.contains("@Test"), let type { withTests.insert(type) }
            }
        }
        #expect(withTests.count > 30 && withTests.contains("DocumentationTests"), "the scan found \(withTests.sorted())")
        for suite in withTests.subtracting(["DocumentationTests"]).sorted() {
            let switched = traits[suite].map { $0.contains(".endToEnd") || $0.contains(".soak") } ?? false
            #expect(switched, "\(suite) runs in plain swift test: give its @Suite the trait .endToEnd (Tests/MIGATestSupport/SuiteSwitches.swift)")
        }
    }
}
