#if canImport(Glibc)
import Glibc
#endif

/// The settings in effect, written as TOML with every default filled in.
public enum ConfigSummary {
    public static func text(_ config: Config, path: String) -> String {
        var lines = ["# Settings in effect, from \(path)", "# (defaults where the file says nothing)",
                     "pause = \(config.pause)",
                     "interests = \(TOMLLiteral.strings(config.interests).text)",
                     "notifications = \(config.notifications)",
                     "reduced_motion = \(config.reducedMotion)"]
        for (command, settings) in config.programs.sorted(by: { $0.key < $1.key }) {
            lines += ["", "[programs.\(ConfigEditor.tableKey(command))]",
                      "name = \(ConfigEditor.quoted(settings.displayName))",
                      "pause = \(settings.pause ?? config.pause)" + (settings.pause == nil ? "   # the default" : ""),
                      "non_interactive = \(ConfigEditor.quoted(settings.nonInteractive.rawValue))"]
            if let minutes = settings.allowMinutes { lines.append("allow_minutes = \(TOMLLiteral.number(minutes).text)") }
            if settings.escalate {
                lines += ["escalate = true", "escalate_step = \(settings.escalateStep)", "escalate_max = \(settings.escalateMax)"]
            }
            if let hours = settings.hours { lines.append("hours = \(ConfigEditor.quoted(hours.description))") }
            if settings.holdWhenUnfocused { lines.append("hold_when_unfocused = true") }
            if settings.askIntention { lines.append("ask_intention = true") }
        }
        return lines.joined(separator: "\n")
    }
}
