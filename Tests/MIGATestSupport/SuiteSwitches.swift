import Foundation
import Testing

/// The switches of the suites that take minutes and the packages `make test`
/// installs (the built binary under tmux, real shells, terminal windows,
/// browsers and a notification server): off unless set, so that plain
/// `swift test` is the quick run of everything else (docs/TESTING.md).
/// Every suite in Tests/EndToEndTests carries one of the traits below, and a
/// documentation test fails when one does not.
public enum SuiteSwitch {
    /// Set to 1 by `make test` (and so by CI): the end-to-end suites.
    public static let endToEnd = "MIGA_END_TO_END"
    /// Set to 1 by `make soak`: the long reliability runs.
    public static let soak = "MIGA_SOAK"

    static func isOn(_ variable: String) -> Bool {
        ProcessInfo.processInfo.environment[variable] == "1"
    }
}

extension Trait where Self == ConditionTrait {
    /// An end-to-end suite: run by `make test`, skipped by plain `swift test`.
    public static var endToEnd: Self {
        .enabled(if: SuiteSwitch.isOn(SuiteSwitch.endToEnd), "end-to-end: \(SuiteSwitch.endToEnd)=1 runs it, as make test does")
    }

    /// A soak suite, minutes long: run by `make soak` only.
    public static var soak: Self {
        .enabled(if: SuiteSwitch.isOn(SuiteSwitch.soak), "soak: \(SuiteSwitch.soak)=1 runs it, as make soak does")
    }
}
