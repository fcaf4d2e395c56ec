import Foundation

/// The product's Swift sources as the guard tests read them: every file
/// under Sources/, by its path from there, with its comments taken out (a
/// comment may name what code must not spell).
enum ProductSources {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    static let code: [String: String] = {
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let path = String(url.path.dropFirst(folder.path.count + 1))
            files[path] = withoutComments(text)
        }
        return files
    }()

    /// Swift text without its comments; a `//` or `/*` inside a string literal stays.
    static func withoutComments(_ text: String) -> String {
        var kept = "", inString = false, escaped = false
        var rest = Substring(text)
        while let character = rest.first {
            if inString {
                kept.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                rest = rest.dropFirst()
            } else if rest.hasPrefix("//") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                rest = rest.range(of: "*/").map { rest[$0.upperBound...] } ?? ""
            } else {
                inString = character == "\""
                kept.append(character)
                rest = rest.dropFirst()
            }
        }
        return kept
    }

    /// The text inside the string literals of `code` (comments already out):
    /// what a program writes or compares, where an argument label is not.
    static func stringLiterals(in code: String) -> [Substring] {
        var literals: [Substring] = []
        var rest = Substring(code)
        while let open = rest.firstIndex(of: "\"") {
            var index = rest.index(after: open)
            var escaped = false
            while index < rest.endIndex {
                let character = rest[index]
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { break }
                index = rest.index(after: index)
            }
            literals.append(rest[rest.index(after: open)..<index])
            rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
        }
        return literals
    }
}
