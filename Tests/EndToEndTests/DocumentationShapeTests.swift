import Foundation
import MIGACore
import Testing

/// The documentation's shape: a README a newcomer reads to the end, an
/// architecture that names every part of the package, and links that lead
/// somewhere.
extension DocumentationTests {
    static let readmeWordLimit = 1_500
    /// The lines a terminal shows before the README scrolls.
    static let firstScreen = 24

    /// Every Markdown file a reader follows links through.
    static func linkedDocuments() throws -> [Document] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        #expect(!docs.isEmpty, "no docs/*.md")
        return try (["README.md", "ARCHITECTURE.md", "Benchmarks/RESULTS.md"] + docs).map(Document.init)
    }

    @Test func the_readme_is_short_and_starts_with_the_two_commands() throws {
        let readme = try Document("README.md")
        // Words as `wc -w` counts them: runs of anything but ASCII white space.
        let words = readme.text.unicodeScalars.split(whereSeparator: { " \t\n\r\u{0B}\u{0C}".unicodeScalars.contains($0) }).count
        #expect(words <= Self.readmeWordLimit, "README.md has \(words) words, more than \(Self.readmeWordLimit)")
        let firstScreen = readme.lines.prefix(Self.firstScreen).joined(separator: "\n")
        for command in ["make run", "make test"] {
            #expect(firstScreen.contains(command), "\(command) is not within the README's first \(Self.firstScreen) lines")
        }
    }

    @Test func the_architecture_names_every_target_and_every_folder_of_the_library() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = /\.(?:executableTarget|target|testTarget|systemLibrary|binaryTarget|plugin|macro)\(\s*name:\s*"([^"]+)"/
        let targets = manifest.matches(of: declaration).map { String($0.1) }
        #expect(targets.contains("miga") && targets.contains("MIGACore") && targets.contains("MIGAKit") && targets.contains("EndToEndTests"),
                "\(targets)")
        let architecture = try Document("ARCHITECTURE.md")
        let headings = architecture.headings.joined(separator: "\n")
        for target in targets {
            #expect(headings.contains("`\(target)`"), "ARCHITECTURE.md has no heading for the target \(target)")
        }
        // Each target's folders are named under its own heading, down to the next target's.
        let folderCounts = try targets.map { target in (target, try Self.folders(in: "Sources/\(target)")) }
        #expect(folderCounts.contains { $0.0 == "MIGAKit" && $0.1.contains("Gateway") }, "\(folderCounts)")
        for (target, folders) in folderCounts where !folders.isEmpty {
            let section = architecture.section(under: "### `\(target)`").joined(separator: "\n")
            for folder in folders {
                #expect(section.contains("#### `\(folder)/`"), "ARCHITECTURE.md has no heading for Sources/\(target)/\(folder)/ under `\(target)`")
            }
        }
    }

    /// ARCHITECTURE.md: `miga` does not depend on `MIGAFuzzing`, so none of
    /// it ships. Looked for by the names its metadata keeps, stripped or not
    /// (the module's, and `FuzzTarget`'s in any module), in the built binary,
    /// and, so that the search is seen to find them, in this test's own
    /// executable, which links them.
    @Test func the_fuzz_targets_are_not_in_the_binary_that_ships() throws {
        let name = { (text: String) in Data(text.utf8) }
        let miga = try Data(contentsOf: URL(fileURLWithPath: migaBinary), options: .alwaysMapped)
        let tests = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/exe"), options: .alwaysMapped)
        #expect(miga.range(of: name("\0MIGAKit\0")) != nil, "MIGAKit is not found in \(migaBinary)")
        for fuzzing in ["\0MIGAFuzzing\0", "FuzzTarget\0"] {
            #expect(tests.range(of: name(fuzzing)) != nil, "\(fuzzing.debugDescription) is not found even where it is linked")
            #expect(miga.range(of: name(fuzzing)) == nil, "\(migaBinary) holds \(fuzzing.debugDescription)")
        }
    }

    /// The folders in a folder of the checkout; none when it does not exist.
    static func folders(in relativePath: String) throws -> [String] {
        let path = Self.root.appendingPathComponent(relativePath).path
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    @Test func every_relative_link_leads_to_a_file_and_heading_that_exist() throws {
        var checked = 0
        for document in try Self.linkedDocuments() {
            let folder = Self.root.appendingPathComponent(document.path).deletingLastPathComponent()
            for link in document.links where !link.contains("://") && !link.hasPrefix("mailto:") {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? Self.root.appendingPathComponent(document.path) : folder.appendingPathComponent(parts[0])
                guard FileManager.default.fileExists(atPath: target.standardizedFileURL.path) else {
                    Issue.record("\(document.path) links to \(link), which does not exist")
                    continue
                }
                guard parts.count == 2, target.pathExtension == "md" else { continue }
                let anchors = try Document(String(target.standardizedFileURL.path.dropFirst(Self.root.standardizedFileURL.path.count + 1)))
                    .headings.map(Document.anchor)
                #expect(anchors.contains(parts[1]), "\(document.path) links to \(link): no such heading there")
            }
        }
        #expect(checked > 10, "only \(checked) relative links found")
    }
}

extension Document {
    /// The lines of the document that are not inside a fenced code block.
    var prose: [String] {
        var inCode = false
        return lines.filter { line in
            if line.hasPrefix("```") { inCode.toggle(); return false }
            return !inCode
        }
    }

    /// The headings, `#` marks and all.
    var headings: [String] {
        prose.filter { line in
            let hashes = line.prefix { $0 == "#" }.count
            return hashes > 0 && line.dropFirst(hashes).hasPrefix(" ")
        }
    }

    /// The headings from the one that starts with `heading` to the next of
    /// the same level or above (none when there is no such heading).
    func section(under heading: String) -> [String] {
        let level = heading.prefix { $0 == "#" }.count
        guard let start = headings.firstIndex(where: { $0.hasPrefix(heading) }) else { return [] }
        let rest = headings[(start + 1)...]
        let end = rest.firstIndex { $0.prefix { $0 == "#" }.count <= level } ?? rest.endIndex
        return Array(headings[start..<end])
    }

    /// The target of every inline link, code spans left out.
    var links: [String] {
        prose.flatMap { line in
            let outsideCode = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            return outsideCode.matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) }
        }
    }

    /// The anchor GitHub gives a heading: lower case, letters, digits, `-`
    /// and `_` kept, each space a `-`, everything else dropped.
    static func anchor(_ heading: String) -> String {
        let words = heading.drop { $0 == "#" }.dropFirst().lowercased()
        return String(words.compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }
}
