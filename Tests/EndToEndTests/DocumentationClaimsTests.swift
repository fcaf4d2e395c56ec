import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit

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

// MARK: Words that point elsewhere

extension DocumentationTests {
    /// The sources and documents point only at what the repository holds: no
    /// finding of a design document kept elsewhere (two comments once cited
    /// findings of a "seed" document by number), and no path in the
    /// repository that is not there.
    @Test func no_text_points_to_what_the_repository_does_not_hold() throws {
        let finding = /\bF-[0-9]{3}\b/
        #expect(("(seed F-" + "006)").contains(finding), "the scan would not see a cited finding")
        let texts = try Self.texts(under: ["Sources", "Tests", "docs", "Extension", "scripts", "Benchmarks", "packaging", "Fuzz/Sources"])
            .merging(try Self.texts(in: ["Makefile", "Package.swift", "README.md", "ARCHITECTURE.md", "SECURITY.md"])) { $1 }
        #expect(texts.count > 200, "only \(texts.count) files read")
        #expect(texts.filter { $0.value.contains(finding) }.keys.sorted() == [], "a finding of a document the repository does not hold")

        // A path that begins with one of the repository's folders, in any Markdown
        // file, exists; placeholders aside (`Fuzz/Regressions/TARGET/`, `Tests/…/File.swift`).
        let folders = try Self.folders(in: ".").filter { !$0.hasPrefix(".") }
        let path = try Regex("(?:^|[^\\w/.~-])((?:\(folders.joined(separator: "|")))/[\\w./+@-]*)")
        var checked = 0
        for (document, text) in texts where document.hasSuffix(".md") {
            for match in text.matches(of: path) {
                guard let found = match.output[1].substring else { continue }
                let mentioned = String(found).trimmingCharacters(in: CharacterSet(charactersIn: ".,:"))
                if mentioned.contains(/(?:^|\/)[A-Z]{3,}(?:\/|$)|…/) { continue }
                checked += 1
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(mentioned).path),
                        "\(document) names \(mentioned), which is not in the repository")
            }
        }
        #expect(checked > 50, "only \(checked) paths found in the documents")
    }

    /// Extension/README.md's files are what `make extension` packs, and the
    /// fields of a site's rules are the same in docs/SITES.md, in what the
    /// host sends (`SiteRules`) and in what rules.js reads: every priority is
    /// Swift's (`SitePattern`), and the README names no other.
    @Test func the_extension_and_its_documents_take_the_rules_the_host_gives() throws {
        let readme = try Document("Extension/README.md"), sites = try Document("docs/SITES.md")
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let packed = Set(try #require(makefile.firstMatch(of: /EXTENSION_FILES = ([^\n]+)/)).1.split(separator: " ").map(String.init))
        let listed = Set(Document.table(try readme.section("## Files")).flatMap { $0[0].matches(of: /`([^`]+)`/).map { String($0.1) } })
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Extension").path))
            .subtracting(["README.md", "manifests"])
        #expect(packed.count > 10 && listed == packed && present == packed,
                "packed: \(packed.sorted()); listed: \(listed.sorted()); in Extension/: \(present.sorted())")

        let rule = SiteRules.rule(for: try Site("example.org/a"), pause: 30)
        let sent = Set(try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(rule)) as? [String: Any]).keys)
        let rules = try String(contentsOf: Self.root.appendingPathComponent("Extension/rules.js"), encoding: .utf8)
        let read = Set(rules.matches(of: /\bitem\.(\w+)/).map { String($0.1) })
        let answer = try #require(sites.text.firstMatch(of: /"sites":\[\{([^}]*)\}/), "no rules answer in \(sites.path)")
        let documented = Set(answer.1.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) })
        #expect(sent.count > 5 && read == sent && documented == sent,
                "the host sends \(sent.sorted()); rules.js reads \(read.sorted()); \(sites.path) says \(documented.sorted())")
        let priorities = Set((readme.text + sites.text).matches(of: /`(\w+Priority)`/).map { String($0.1) })
        #expect(!priorities.isEmpty && priorities.isSubset(of: sent), "priorities named: \(priorities.sorted())")
    }

    /// Extension/README.md: the rules come "at once, and at each change",
    /// never on a timer (an earlier README said every ten minutes): the one
    /// alarm any script sets is the end of an allowance.
    @Test func the_extension_asks_for_the_rules_on_no_timer() throws {
        let folder = Self.root.appendingPathComponent("Extension")
        var alarms: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".js") {
            let script = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            alarms += script.matches(of: /alarms\.create\(([^,)]*)/).map { "\(file): \($0.1)" }
            let repeats = script.contains("setInterval")
            if file != "pause.js" { #expect(!repeats, "\(file) repeats something on a timer") }
        }
        #expect(alarms == ["rules.js: \"allowances\""])
    }

    /// The text of every file under `folders` that is UTF-8, by its path from the root.
    static func texts(under folders: [String]) throws -> [String: String] {
        var texts: [String: String] = [:]
        for folder in folders {
            let top = root.appendingPathComponent(folder)
            for path in try FileManager.default.subpathsOfDirectory(atPath: top.path) where !path.contains(".build") {
                texts[folder + "/" + path] = try? String(contentsOf: top.appendingPathComponent(path), encoding: .utf8)
            }
        }
        return texts
    }

    static func texts(in files: [String]) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try files.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) })
    }
}
