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

// MARK: Errors are reported in one place

extension DocumentationTests {
    static let reportingPlace = "Sources/miga/Reporting.swift"

    /// ARCHITECTURE.md: a refusal becomes a line and a status in one place,
    /// and no other code ends the process.
    @Test func only_the_reporting_place_ends_the_process() throws {
        let sources = try Self.swiftSources()
        let call = /(?:^|[^\w])_?exit\(/
        #expect(sources[Self.reportingPlace]?.contains(call) == true, "the scan finds no exit( even in \(Self.reportingPlace)")
        let others = sources.filter { $0.key != Self.reportingPlace && $0.value.contains(call) }.keys
        #expect(sources.count > 100 && others.isEmpty, "exit( outside \(Self.reportingPlace): \(others.sorted())")
    }

    /// ARCHITECTURE.md: no command says an error and ends by hand; it throws
    /// the `MigaError`, and the reporting place says it.
    @Test func no_message_is_printed_just_before_the_command_ends() throws {
        let byHand = #"printError("miga: no quote \(id) (none)")"# + "\n        throw ExitCode(ExitStatus.usage)"
        #expect(Self.printedThenEnded(in: byHand) == [#"printError("miga: no quote \(id) (none)")"#])
        #expect(Self.printedThenEnded(in: "printError(error.line) }\n    failure = 1") == [])
        let sources = try Self.swiftSources()
        #expect(Self.printedThenEnded(in: try #require(sources[Self.reportingPlace])).count == 1, "the one place is not seen")
        for (path, code) in sources where path != Self.reportingPlace {
            #expect(Self.printedThenEnded(in: code) == [], "\(path): throw a MigaError instead, for \(Self.reportingPlace) to say")
        }
    }

    /// Every Swift file under Sources/, by its path from the root, its comment lines left out.
    static func swiftSources() throws -> [String: String] {
        let top = root.appendingPathComponent("Sources")
        var files: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: top.path) where path.hasSuffix(".swift") {
            let text = try String(contentsOf: top.appendingPathComponent(path), encoding: .utf8)
            files["Sources/" + path] = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.drop(while: \.isWhitespace).hasPrefix("//") }.joined(separator: "\n")
        }
        return files
    }

    /// Each `printError(…)` in `code` that the command follows with its end
    /// (a `throw`, a status returned, the process ended).
    static func printedThenEnded(in code: String) -> [String] {
        var found: [String] = []
        var rest = code[...]
        while let call = rest.range(of: "printError(") {
            var depth = 1
            var end = call.upperBound
            while end < rest.endIndex && depth > 0 {
                if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            let next = rest[end...].drop { $0.isWhitespace || $0 == "}" || $0 == ";" }
            if ["throw", "return ExitStatus", "endProcess(", "exit("].contains(where: { next.hasPrefix($0) }) {
                found.append(String(rest[call.lowerBound..<end]))
            }
            rest = rest[end...]
        }
        return found
    }
}

