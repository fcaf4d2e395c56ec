import MIGACore
import TOMLKit

extension ProgramSetting {
    // MARK: Readers every setting shares

    static func text(_ value: TOMLValueConvertible, _ take: (String) -> Void) -> Problem? {
        guard let text = value.string else { return Problem(text: "must be a string in quotes, not \(shown(value))", consequence: nil) }
        take(text)
        return nil
    }

    /// One of a type's words (`"pass"`, `"terminal"`, `"deny"`); else the problem, and `fallback` meanwhile.
    static func choice<T: CaseIterable & RawRepresentable<String>>(_ value: TOMLValueConvertible, otherwise fallback: T,
                                                                    _ take: (T) -> Void) -> Problem? {
        guard let word = value.string, let chosen = T(rawValue: word) else {
            let choices = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            return Problem(text: "must be one of \(choices), not \(shown(value))", consequence: "using \"\(fallback.rawValue)\"")
        }
        take(chosen)
        return nil
    }

    /// A list of kinds of pause, each known and none twice; else the problem, and the defaults meanwhile.
    static func kinds(_ value: TOMLValueConvertible,
                      otherwise defaults: String = "using the defaults " + TOMLLiteral.strings(PauseKind.defaults.map(\.rawValue)).text,
                      _ take: ([PauseKind]) -> Void) -> Problem? {
        let names = PauseKind.allCases.map { "\"\($0.rawValue)\"" }
        let known = spokenList(names)
        guard let array = value.array else {
            return Problem(text: "must be a list of kinds, like [\"breathe\", \"type\"], not \(shown(value))", consequence: defaults)
        }
        var kinds: [PauseKind] = []
        for element in array {
            guard let word = element.string, let kind = PauseKind(rawValue: word) else {
                return Problem(text: "holds \(shown(element)), which is no kind of pause (the kinds are \(known))", consequence: defaults)
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { return Problem(text: "is empty: name at least one of \(known)", consequence: defaults) }
        take(kinds)
        return nil
    }

    static func seconds(_ value: TOMLValueConvertible, in range: ClosedRange<Int>, _ take: (Int) -> Void) -> Problem? {
        guard let seconds = value.int, range.contains(seconds) else {
            return Problem(text: "must be a whole number of seconds from \(range.lowerBound) to \(range.upperBound), not \(shown(value))",
                           consequence: "using the default")
        }
        take(seconds)
        return nil
    }

    static func flag(_ value: TOMLValueConvertible, _ take: (Bool) -> Void) -> Problem? {
        guard let flag = value.bool else { return Problem(text: "must be true or false, not \(shown(value))", consequence: "using the default") }
        take(flag)
        return nil
    }

    /// A value as the person wrote it, for a message.
    static func shown(_ value: TOMLValueConvertible) -> String {
        if let text = value.string { return "\"\(text)\"" }
        return value.debugDescription
    }
}
