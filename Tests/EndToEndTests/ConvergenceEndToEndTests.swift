import Foundation
import Testing
import MIGATestSupport
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGADesktop

/// Every command that writes can be run again safely: run once from a
/// lived-in home, then again, and nothing changes the second time — not a
/// byte, a mode, a link target or a row. A writer added later joins the
/// table below in one line.
@Suite(.serialized, .endToEnd) struct ConvergenceEndToEndTests {
    /// A command that writes, as a person runs it.
    struct Writer: CustomTestStringConvertible, Sendable {
        let name: String
        let run: @Sendable (Home) throws -> Void
        var testDescription: String { name }

        /// A plain command line; its first run must end with one of `statuses`.
        static func command(_ arguments: [String], statuses: Set<Int32> = [0]) -> Writer {
            Writer(name: "miga " + arguments.joined(separator: " ")) { home in try home.miga(arguments, statuses: statuses) }
        }
    }

    static let writers: [Writer] = [
        .command(["protect", "argv-dump", "--pause", "20"]),
        .command(["protect", "slack"]),
        .command(["protect", "slack", "--allow", "15", "--name", "Slack"]),
        .command(["unprotect", "--now", "argv-dump"]),
        Writer(name: "miga setup, Enter through every page") { try $0.setup() },
        .command(["interests", "set", "Nature", "Zen"]),
        .command(["quotes", "add", "Somewhere a kettle is singing.", "--tag", "Tea"]),
        .command(["quotes", "import", "fixtures/kettles"]),
        .command(["import", "fixtures/elsewhere.json"]),
        .command(["sync", "sync"]),
        .command(["sync", "sync", "--timer"]),
        .command(["refresh"]),
        .command(["refresh", "--units"]),
        // Doctor finds problems this sandbox cannot mend (no notification server): status 1.
        .command(["doctor", "--fix"], statuses: [0, 1]),
        .command(["uninstall", "--now"]),
    ]

    @Test(arguments: writers)
    func a_second_run_changes_nothing(writer: Writer) throws {
        let home = try Home()
        try writer.run(home)
        let once = try home.snapshot()
        home.firstRun = false
        try writer.run(home)
        let twice = try home.snapshot()
        for path in Set(once.keys).union(twice.keys).sorted() where once[path] != twice[path] {
            Issue.record("\(writer.name) changed \(path) the second time:\n  \(once[path] ?? "(absent)")\n→ \(twice[path] ?? "(absent)")")
        }
    }

    @Test func from_a_changed_state_protect_updates_in_place() throws {
        let home = try Home()
        // The package updates its entry (a new flag, %F for %U), and the person asks for new settings.
        try home.write("[Desktop Entry]\nType=Application\nName=Slack\nExec=\(home.sandbox.root)/bin/slack --enable-crashpad %F\nTerminal=false\n",
                       to: "system/applications/slack.desktop")
        try home.miga(["protect", "slack", "--pause", "45"])
        let config = try #require(home.sandbox.read("config/miga/config.toml"))
        #expect(config.components(separatedBy: "[programs.slack]").count == 2, "one table for slack:\n\(config)")
        #expect(ConfigLoader.load(from: home.sandbox.root + "/config/miga/config.toml").config.programs["slack"]?.pause == 45)
        let shims = try FileManager.default.contentsOfDirectory(atPath: home.sandbox.root + "/data/miga/shims")
        #expect(shims.filter { $0 == "slack" }.count == 1)
        let entry = try DesktopEntry(text: try #require(home.sandbox.read("data/applications/slack.desktop")))
        let words = try DesktopExec.split(try #require(entry.value("Exec")))
        #expect(words == [.text(migaBinary), .text("gate"), .text("--window"), .text("--detach"), .text("--as"), .text("slack"),
                          .text(home.sandbox.root + "/bin/slack"), .text("--"), .text("--enable-crashpad"), .fieldCode("F")])
    }

    /// A home that has been used for a while: a commented config, two
    /// programs protected (one with a menu entry, one with a menu entry of
    /// the person's own), a history, a sync folder shared with another
    /// machine, a fortune file and an export to import.
    final class Home {
        let sandbox = Sandbox()
        var firstRun = true
        var environment: [String: String] {
            sandbox.environment.merging(["XDG_DATA_DIRS": sandbox.root + "/system", "XDG_CONFIG_DIRS": sandbox.root + "/xdg",
                                         "SHELL": "/bin/bash"]) { $1 }
        }

        init() throws {
            try sandbox.program("slack", "#!/bin/sh\nexit 0\n")
            try sandbox.program("firefox", "#!/bin/sh\nexit 0\n")
            try write("[Desktop Entry]\nType=Application\nName=Slack\nExec=\(sandbox.root)/bin/slack %U\nTerminal=false\n",
                      to: "system/applications/slack.desktop")
            try write("[Desktop Entry]\nType=Application\nName=Firefox\nExec=firefox %u\nActions=new;\n\n[Desktop Action new]\nName=New\nExec=firefox --new-window %u\n",
                      to: "system/applications/firefox.desktop")
            // The person's own Firefox entry, which shadows the system's.
            try write("[Desktop Entry]\nType=Application\nName=My Firefox\nExec=firefox -P mine %u\n",
                      to: "data/applications/firefox.desktop")
            chmod(sandbox.root + "/data/applications/firefox.desktop", 0o755)
            // Slack starts itself at login, and answers D-Bus activation.
            try write("[Desktop Entry]\nType=Application\nName=Slack\nExec=\(sandbox.root)/bin/slack -s %U\nX-GNOME-Autostart-enabled=true\n",
                      to: "config/autostart/slack.desktop")
            try write("[D-BUS Service]\nName=com.slack.Slack\nExec=\(sandbox.root)/bin/slack --dbus\n",
                      to: "system/dbus-1/services/com.slack.Slack.service")
            try sandbox.config("""
                # My settings
                pause = 40

                # Chat: evenings only
                [programs.slack]
                name = "Slack"
                """)
            try miga(["protect", "slack", "firefox", "argv-dump"])
            try miga(["gate", "argv-dump", "--", "a pass-through"], statuses: [7])
            try write("Tea is a pause you can drink.\n%\nThe kettle does not hurry.\n%\n", to: "fixtures/kettles")
            try write("""
                {"format": "miga-sessions", "version": 1, "sessions": [
                  {"id": "6f1c2d4e-0000-4000-8000-000000000001", "program": "firefox", "started_at": "2026-11-20T09:00:00.000Z",
                   "ended_at": "2026-11-20T09:01:30.000Z", "outcome": "exit", "paused_seconds": 90, "deepen_count": 0,
                   "quotes": [], "device": "5ca1ab1e-0000-4000-8000-000000000002"}
                ]}
                """, to: "fixtures/elsewhere.json")
            try write("""
                {"deepen_count":1,"device":"5ca1ab1e-0000-4000-8000-000000000003","ended_at":"2026-11-21T20:00:40.000Z","id":"6f1c2d4e-0000-4000-8000-000000000004","outcome":"proceed","paused_seconds":40,"program":"slack","quotes":[],"started_at":"2026-11-21T20:00:00.000Z"}

                """, to: "sync/miga-5ca1ab1e-0000-4000-8000-000000000003.jsonl")
        }

        func write(_ text: String, to relative: String) throws {
            let path = sandbox.root + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        /// Runs `miga ARGUMENTS` from the home folder; the first run of a writer must end as expected.
        func miga(_ arguments: [String], statuses: Set<Int32> = [0]) throws {
            let result = try run("/bin/sh", ["-c", "cd \(shellQuoted(sandbox.root)) && exec \"$0\" \"$@\"", migaBinary] + arguments,
                                 environment: environment)
            if firstRun {
                #expect(statuses.contains(result.status), "miga \(arguments.joined(separator: " ")): \(result.status) \(result.error)")
            }
        }

        func setup() throws { try sandbox.setupAgain(environment: environment) }

        /// Everything MIGA may write under this home: each file's mode and
        /// bytes, each link's target, each folder; the history by its rows.
        func snapshot() throws -> [String: String] {
            var state: [String: String] = [:]
            let store = sandbox.root + "/data/miga/miga.sqlite"
            for top in ["config", "data", "sync", ".bashrc", ".zshrc", ".config"] {
                let root = sandbox.root + "/" + top
                var paths = [root]
                if let walker = FileManager.default.enumerator(atPath: root) {
                    for case let relative as String in walker { paths.append(root + "/" + relative) }
                }
                for path in paths where !path.hasPrefix(store) {
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    let mode = String(info.st_mode & 0o7777, radix: 8)
                    switch info.st_mode & S_IFMT {
                    case S_IFLNK: state[path] = "link → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
                    case S_IFDIR: state[path] = "folder \(mode)"
                    default:
                        let bytes = FileManager.default.contents(atPath: path) ?? Data()
                        state[path] = "file \(mode) " + String(decoding: bytes, as: UTF8.self)
                    }
                }
            }
            if FileManager.default.fileExists(atPath: store) {
                let history = try SessionStore(path: store)
                state["history: sessions"] = String(try history.sessions().count)
                state["history: changes"] = String(try history.changes().count)
            }
            return state
        }
    }
}
