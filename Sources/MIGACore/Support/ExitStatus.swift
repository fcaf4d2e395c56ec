/// MIGA's exit statuses, a contract with scripts. `documented` is the one
/// place they are described: `miga --help`, the manual and the table in
/// docs/GUIDE.md come from it (a test holds that table to it).
public enum ExitStatus {
    public static let success: Int32 = 0
    /// Something went wrong that is not the person's doing (a file that cannot be written).
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    /// The person left (setup, with Ctrl-C), as a shell reports an interrupt.
    public static let cancelled: Int32 = 130
    /// A file to import is not a MIGA export, or the config cannot be read
    /// where a command needs it whole (EX_DATAERR).
    public static let dataError: Int32 = 65
    /// A program whose policy is `deny` was started without a terminal.
    public static let denied: Int32 = 69
    /// `miga native-host` started by anything but MIGA's browser extension (EX_NOPERM).
    public static let notPermitted: Int32 = 77
    public static let cannotExecute: Int32 = 126
    public static let notInstalled: Int32 = 127
    /// Ended by a signal: 128 + its number (SIGHUP 129, SIGINT 130, SIGTERM 143).
    public static func signal(_ number: Int32) -> Int32 { 128 + number }

    /// Every status and what it means, in order.
    public static let documented: [(status: String, meaning: String)] = [
        ("0", "Exit to Focus (nothing was started); `unprotect`/`uninstall` done or kept; for other commands, success"),
        ("1", "a file could not be written; `miga doctor` found a problem; `miga sync` could not read another machine's file"),
        ("the program's own", "after Proceed, MIGA becomes the program, so its status is yours"),
        ("64", "usage error (for example a command that does not exist, `--pause 0`, an unknown tag or device, a quote that is not yours to remove, "
            + "`unprotect` of a program that is not protected, or without a terminal and without `--now`; "
            + "the hub or setup where `TERM=dumb`)"),
        ("65", "`miga import` or `miga quotes import` was given a file it cannot read (nothing was imported); "
            + "the config cannot be read (not valid TOML, or unreadable) for `miga list` or `miga setup`"),
        ("69", "no terminal, and the program's `non_interactive` is `deny`"),
        ("77", "`miga native-host` was started by something other than MIGA's browser extension"),
        ("126", "the program cannot be executed (a folder, a file without execute permission), or gateways lead back to each other in a loop"),
        ("127", "the program is not installed"),
        ("128 + N", "the pause was ended by signal N (129 window closed, 130 `SIGINT`, 143 `SIGTERM`)"),
        ("130", "setup was left with Ctrl-C (nothing was saved)"),
    ]

    /// The statuses as a few lines of plain text, for help and the manual.
    public static var helpText: String {
        documented.map { "  \($0.status): \($0.meaning.replacingOccurrences(of: "`", with: ""))" }.joined(separator: "\n")
    }
}

