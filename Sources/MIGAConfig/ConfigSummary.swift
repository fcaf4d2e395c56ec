#if canImport(Glibc)
import Glibc
#endif
import MIGACore

/// The settings in effect, written as TOML with every default filled in.
public enum ConfigSummary {
    public static func text(_ config: Config, path: String) -> String {
        var lines = ["# Settings in effect, from \(path)", "# (defaults where the file says nothing)",
                     "pause = \(config.pause)",
                     "interests = \(TOMLLiteral.strings(config.interests).text)",
                     "notifications = \(config.notifications)",
                     "reduced_motion = \(config.reducedMotion)",
                     "pause_kinds = \(TOMLLiteral.strings(config.pauseKinds.map(\.rawValue)).text)",
                     "rotate = \(ConfigEditor.quoted(config.rotate.rawValue))",
                     "weekly_review = \(config.weeklyReview)"]
        for (command, settings) in config.programs.sorted(by: { $0.key < $1.key }) {
            lines += ["", "[programs.\(ConfigEditor.tableKey(command))]"]
            for setting in ProgramSetting.all {
                if let value = setting.effective(settings, config) { lines.append("\(setting.key) = \(value)") }
            }
        }
        return lines.joined(separator: "\n")
    }
}
