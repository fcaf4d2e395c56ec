import Foundation
import Testing

/// The code base's size limits, read from the sources themselves: no file
/// over 320 lines, no function or initializer over 60 (from its first line to
/// its closing brace). A function that reads best whole (a scanner's state
/// machine, a parser's table) says so in a comment above it containing
/// "whole:", with the reason.
@Suite struct SourceSizeTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")
    static let longestFile = 320
    static let longestFunction = 60

    /// Every Swift file under Sources/, by path from there.
    static let files = SourceScan.swiftFiles(under: sources, namedFrom: sources)

    @Test func the_sources_are_found() {
        #expect(Self.files.count > 50)
    }

    @Test func no_source_file_is_longer_than_320_lines() {
        let long = Self.files.compactMap { path, text in
            let count = SourceScan.lineCount(text)
            return count > Self.longestFile ? "\(path): \(count) lines" : nil
        }
        #expect(long.sorted() == [])
    }

    @Test func no_function_is_longer_than_60_lines_unless_it_says_why_it_reads_best_whole() {
        let long = Self.files.flatMap { path, text in
            SourceScan.functions(in: text)
                .filter { $0.lines > Self.longestFunction && !$0.keptWhole }
                .map { "\(path):\($0.line): \($0.name) is \($0.lines) lines" }
        }
        #expect(long.sorted() == [])
    }

    // MARK: The scan itself

    @Test func the_scan_measures_a_function_from_its_first_line_to_its_closing_brace() {
        let text = """
            struct S {
                init(reading: () -> String = { "}" }) {
                    let brace = "{ \\("}") /* { */"
                    // }
                }

                /// A nested one counts in its outer function.
                func outer(_ x: Int)
                    -> Int {
                    func inner() -> Int {
                        1
                    }
                    return inner()
                }
                // whole: kept in one piece for the test.
                @discardableResult
                func kept() -> Int { 2 }
                var computed: Int { 3 }
            }
            """
        let found = SourceScan.functions(in: text)
        #expect(found.map(\.name) == ["init", "outer", "inner", "kept"])
        #expect(found.map(\.line) == [2, 8, 10, 17])
        #expect(found.map(\.lines) == [4, 7, 3, 1])
        #expect(found.map(\.keptWhole) == [false, false, false, true])
    }

    @Test func the_scan_skips_braces_in_multiline_strings_and_block_comments() {
        let text = """
            func a() {
                let sql = \"\"\"
                    { not code }
                    }
                    \"\"\"
                /* } */
            }
            func b() {}
            """
        let found = SourceScan.functions(in: text)
        #expect(found.map(\.name) == ["a", "b"])
        #expect(found.map(\.lines) == [7, 1])
    }
}

/// A simple brace-counting scan of Swift source: it knows comments, string
/// literals (with interpolation) and multi-line strings well enough for this
/// code base, and where each function or initializer begins and ends.
enum SourceScan {
    /// The text of every Swift file under `folder`, by its path from `top`.
    static func swiftFiles(under folder: URL, namedFrom top: URL) -> [String: String] {
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files[String(url.path.dropFirst(top.path.count + 1))] = text
        }
        return files
    }

    struct Function {
        var name: String
        /// The line it begins on, from 1.
        var line: Int
        var lines: Int
        /// A comment above it says why it reads best whole.
        var keptWhole: Bool
    }

    static func lineCount(_ text: String) -> Int {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.count
    }

    /// Each line with its string literals' contents and its comments taken
    /// out, so that only code's braces and keywords are left.
    static func codeLines(_ text: String) -> [String] {
        enum Place { case code, string, interpolation(depth: Int), multilineString }
        var stack: [Place] = [.code]
        var inBlockComment = 0
        var result: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let characters = Array(line)
            var code = ""
            var index = 0
            while index < characters.count {
                let character = characters[index]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let isTripleQuote = character == "\"" && next == "\"" && index + 2 < characters.count && characters[index + 2] == "\""
                if inBlockComment > 0 {
                    if character == "*" && next == "/" { inBlockComment -= 1; index += 2; continue }
                    if character == "/" && next == "*" { inBlockComment += 1; index += 2; continue }
                    index += 1
                    continue
                }
                switch stack.last! {
                case .code, .interpolation:
                    if character == "/" && next == "/" { index = characters.count; continue }
                    if character == "/" && next == "*" { inBlockComment = 1; index += 2; continue }
                    if isTripleQuote { stack.append(.multilineString); index += 3; continue }
                    if character == "\"" { stack.append(.string); index += 1; continue }
                    if case .interpolation(let depth) = stack.last! {
                        if character == "(" { stack[stack.count - 1] = .interpolation(depth: depth + 1) }
                        if character == ")" {
                            if depth == 1 { stack.removeLast(); index += 1; continue }
                            stack[stack.count - 1] = .interpolation(depth: depth - 1)
                        }
                    }
                    code.append(character)
                case .string, .multilineString:
                    let multiline: Bool
                    if case .multilineString = stack.last! { multiline = true } else { multiline = false }
                    if character == "\\" && next == "(" { stack.append(.interpolation(depth: 1)); index += 2; continue }
                    if character == "\\" { index += 2; continue }
                    if multiline && isTripleQuote { stack.removeLast(); index += 3; continue }
                    if !multiline && character == "\"" { stack.removeLast(); index += 1; continue }
                }
                index += 1
            }
            // A single-line string never runs past its line.
            while case .string = stack.last! { stack.removeLast() }
            result.append(code)
        }
        return result
    }

    static var declaration: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_.])(func\s+([^\s(<]+)|init[?!]?(?=\s*[(<])|deinit(?=\s*\{)|subscript(?=\s*[(<]))"#) }

    static func functions(in text: String) -> [Function] {
        let source = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let code = codeLines(text)
        let declaration = Self.declaration
        var found: [Function] = []
        /// Declared and waiting for the brace that opens its body.
        var pending: (name: String, line: Int)?
        var parens = 0
        /// The braces' depth, and the functions open at each.
        var depth = 0
        var open: [(index: Int, depth: Int)] = []
        for (lineIndex, line) in code.enumerated() {
            var matches: [(offset: Int, name: String)] = []
            // The regex only where a keyword may be: it is slow, and most lines have none.
            let mayDeclare = ["func", "init", "subscript"].contains { line.contains($0) }
            for match in mayDeclare ? line.matches(of: declaration) : [] {
                let name = match.output[2].substring.map(String.init) ?? String(match.output[1].substring!)
                let start = line.distance(from: line.startIndex, to: match.output[1].range!.lowerBound)
                matches.append((start, name.hasPrefix("init") ? "init" : name))
            }
            for (offset, character) in line.enumerated() {
                if let match = matches.first(where: { $0.offset == offset }) {
                    pending = (match.name, lineIndex + 1)
                    parens = 0
                }
                switch character {
                case "(", "[": parens += 1
                case ")", "]": parens -= 1
                case "{":
                    depth += 1
                    if let declared = pending, parens <= 0 {
                        found.append(Function(name: declared.name, line: declared.line, lines: 0,
                                              keptWhole: saysWhole(above: declared.line - 1, in: source)))
                        open.append((found.count - 1, depth))
                        pending = nil
                    }
                case "}":
                    if let last = open.last, last.depth == depth {
                        found[last.index].lines = lineIndex + 1 - found[last.index].line + 1
                        open.removeLast()
                    }
                    if pending != nil && parens <= 0 { pending = nil }
                    depth -= 1
                default: break
                }
            }
        }
        return found
    }

    /// Whether the comments and attributes just above line `index` (from 0) say "whole:".
    static func saysWhole(above index: Int, in source: [String]) -> Bool {
        var line = index - 1
        while line >= 0 {
            let text = source[line].trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("//") || text.hasPrefix("@") else { return false }
            if text.hasPrefix("//") && text.contains("whole:") { return true }
            line -= 1
        }
        return false
    }
}
