import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore

/// MIGA's promises under load and faults, through the built binary: many
/// gateways at once, gateways killed at any moment, a damaged history, and
/// files a person (or a bad disk) got wrong.
@Suite(.serialized, .endToEnd) struct ReliabilityEndToEndTests {
    let sandbox = Sandbox()

    /// `count` gateways, each in a tmux window of its own, named g0.sh, g1.sh…
    func gateways(_ count: Int, _ arguments: [String]) throws -> (Tmux, [String]) {
        let tmux = try Tmux(command: try sandbox.gateScript(arguments, named: "g0.sh"), environment: sandbox.environment)
        for index in 1..<count {
            try tmux.newWindow(try sandbox.gateScript(arguments, named: "g\(index).sh"), environment: sandbox.environment)
        }
        let windows = try tmux.tmux(["list-windows", "-F", "#{window_id}"]).words
        #expect(windows.count == count)
        return (tmux, windows)
    }

    @Test func fifty_gateways_finishing_at_once_leave_fifty_complete_rows() throws {
        let count = 50
        let (tmux, windows) = try gateways(count, ["--pause", "2", "argv-dump"])
        for window in windows {
            try tmux.waitForScreen("every pause to reach zero", timeout: 90, target: window) { $0.contains("the choice is yours") }
        }
        // One tmux command delivers every key: half exit, half proceed, at once.
        var burst: [String] = []
        for (index, window) in windows.enumerated() {
            burst += (burst.isEmpty ? [] : [";"]) + ["send-keys", "-t", window, index.isMultiple(of: 2) ? "e" : "p"]
        }
        try tmux.tmux(burst)
        for index in 0..<count { _ = try sandbox.status(of: "g\(index).sh", timeout: 90) }
        let rows = try sandbox.sessions()
        #expect(rows.count == count)
        #expect(rows.filter { $0.outcome == .exit }.count == count / 2)
        #expect(rows.filter { $0.outcome == .proceed }.count == count / 2)
        #expect(rows.allSatisfy { $0.endedAt != nil && $0.quotes.count == 1 })
        // Nothing about the store reached anyone's screen.
        for window in windows {
            let screen = try tmux.screen(window)
            #expect(!screen.contains("locked") && !screen.contains("miga:"), "window \(window):\n\(screen)")
        }
    }

    @Test func gateways_killed_at_any_moment_are_all_settled_and_the_store_stays_whole() throws {
        let count = 16
        let (tmux, windows) = try gateways(count, ["--pause", "60", "argv-dump"])
        var generator = SeededGenerator(seed: 2026)
        // Half are killed while their pause is on screen: each has a row.
        for index in 0..<count / 2 {
            try tmux.waitForScreen("pause \(index)", target: windows[index]) { $0.contains("Exit to Focus") }
            kill(try sandbox.pid(of: "g\(index).sh"), SIGKILL)
        }
        // The other half at a random moment of their start: before, during or
        // after the transaction that writes their row.
        for index in count / 2..<count {
            let pid = try sandbox.pid(of: "g\(index).sh")
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            kill(pid, SIGKILL)
        }
        for index in 0..<count {
            let pid = try sandbox.pid(of: "g\(index).sh")
            try eventually("gateway \(index) to die") { isGone(pid) ? true : nil }
        }
        let before = try sandbox.sessions()
        #expect(before.count >= count / 2)
        // Open, or already settled by a gateway that started after its death.
        #expect(before.allSatisfy { $0.outcome == .open || $0.outcome == .abandoned })

        // The next run settles every one of them.
        let next = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"], named: "next.sh"),
                            environment: sandbox.environment)
        try next.waitForScreen("the next pause") { $0.contains("Exit to Focus") }
        try next.send("e")
        #expect(try sandbox.status(of: "next.sh") == 0)
        let after = try sandbox.sessions()
        #expect(Set(after.map(\.id)).isSuperset(of: before.map(\.id)), "a row was lost")
        #expect(after.filter { $0.outcome == .abandoned }.count == before.count)
        #expect(after.filter { $0.outcome == .exit }.count == 1)
        #expect(!after.contains { $0.outcome == .open })
        // The full check, every page and index, not the quick one `miga doctor` runs.
        #expect(try SerialConnection(path: sandbox.storePath, .readWrite).read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
    }

    // MARK: A damaged history

    func damagedCopies() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.root + "/data/miga")
            .filter { $0.hasPrefix("miga.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    }

    @Test func a_store_that_is_not_a_database_is_moved_aside_and_the_pause_goes_on() throws {
        try FileManager.default.createDirectory(atPath: sandbox.root + "/data/miga", withIntermediateDirectories: true)
        let garbage = "these are not the bytes of a database\n" + String(repeating: "x", count: 5000)
        try garbage.write(toFile: sandbox.storePath, atomically: true, encoding: .utf8)
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "1", "argv-dump"]), environment: sandbox.environment)
        let pause = try tmux.waitForScreen("the pause with its notice") { $0.contains("the choice is yours") && $0.contains("⚠") }
        #expect(pause.contains("damaged"))
        try tmux.send("p")
        #expect(try sandbox.status() == 7)
        let screen = try tmux.screen().replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("is damaged (it is not a database); it was moved to"))
        // Kept, byte for byte, under a timestamped name; the new history has this pause.
        let copies = try damagedCopies()
        #expect(copies.count == 1)
        #expect(copies.first?.range(of: #"^miga\.sqlite\.damaged-\d{8}T\d{6}Z$"#, options: .regularExpression) != nil)
        #expect(sandbox.read("data/miga/" + (copies.first ?? "")) == garbage)
        #expect(try sandbox.sessions().map(\.outcome) == [.proceed])
    }

    @Test func a_store_cut_short_is_moved_aside_and_the_pause_is_recorded_anew() throws {
        do {
            let store = try SessionStore(path: sandbox.storePath)
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            try store.insertMissing((0..<20_000).map { index in
                SessionRecord(id: "old-\(index)", program: "argv-dump", startedAt: start + Double(index),
                              endedAt: start + Double(index) + 30, outcome: .exit, pausedSeconds: 30, quotes: ["a"])
            })
        }
        // Closed (and checkpointed); now lose the second half of the file.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: sandbox.storePath)[.size] as? Int)
        #expect(truncate(sandbox.storePath, off_t(size / 2)) == 0)
        let cut = try #require(FileManager.default.contents(atPath: sandbox.storePath))

        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause") { $0.contains("Exit to Focus") }
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        let screen = try tmux.screen().replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("is damaged (it is cut short or corrupted); it was moved to"), "\(screen)")
        let copies = try damagedCopies()
        #expect(copies.count == 1)
        #expect(FileManager.default.contents(atPath: sandbox.root + "/data/miga/" + (copies.first ?? "")) == cut)
        #expect(try sandbox.sessions().map(\.outcome) == [.exit])
    }

    @Test func stats_on_a_damaged_store_say_so_and_keep_the_file() throws {
        try FileManager.default.createDirectory(atPath: sandbox.root + "/data/miga", withIntermediateDirectories: true)
        try "not a database".write(toFile: sandbox.storePath, atomically: true, encoding: .utf8)
        // Stats only look: the file stays as it is, for the next pause to move aside.
        let stats = try run(migaBinary, ["stats"], environment: sandbox.environment)
        #expect(stats.status == 1)
        #expect(stats.error.contains("is damaged (it is not a database); it is left as it is, and the next pause moves it aside"), "\(stats.error)")
        #expect(try damagedCopies().isEmpty)
        #expect(sandbox.read("data/miga/miga.sqlite") == "not a database")
    }

    // MARK: Files a person got wrong

    @Test func broken_config_and_quote_files_are_reported_with_locations_and_never_rewritten() throws {
        let config = "pause = 30\n[programs.argv-dump\nname = \"Dumper\"\n"
        try sandbox.config(config)
        let quotesFolder = sandbox.root + "/config/miga/quotes"
        try FileManager.default.createDirectory(atPath: quotesFolder, withIntermediateDirectories: true)
        // Invalid UTF-8 on line 2, an empty entry on line 3, a huge one on line 4.
        var bytes = Array("mine-1 | Tea | | A cup, slowly.\n".utf8)
        bytes += [0x6D, 0x69, 0x6E, 0x65, 0x2D, 0x32, 0x20, 0x7C, 0x20, 0xFF, 0xFE, 0x0A]
        bytes += Array("mine-3 | Tea | | \n".utf8)
        bytes += Array(("mine-4 | Tea | | " + String(repeating: "very long ", count: 20_000) + "\n").utf8)
        let quotesFile = quotesFolder + "/mine.txt"
        #expect(FileManager.default.createFile(atPath: quotesFile, contents: Data(bytes)))

        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "60", "argv-dump"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause despite it all") { $0.contains("Exit to Focus") }
        try tmux.send("e")
        #expect(try sandbox.status() == 0)
        let screen = try tmux.screen().replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("config.toml:2:20: "), "\(screen)")
        #expect(screen.contains("mine.txt"), "\(screen)")
        #expect(sandbox.read("config/miga/config.toml") == config)
        #expect(FileManager.default.contents(atPath: quotesFile) == Data(bytes))

        let wrongTypes = "pause = \"long\"\ncolour = 3\n[programs.argv-dump]\nallow_minutes = \"ten\"\nhours = \"Mon-Fry 09:00-17:00\"\n"
        try sandbox.config(wrongTypes)
        let shown = try run(migaBinary, ["config"], environment: sandbox.environment)
        #expect(shown.status == 1)
        for located in ["config.toml:1:1: `pause`", "config.toml:2:1: unknown setting `colour`",
                        "config.toml:4:1: `programs.argv-dump.allow_minutes`", "config.toml:5:1: `programs.argv-dump.hours`: \"Fry\" is not a day"] {
            #expect(shown.error.contains(located), "\(shown.error)")
        }
        #expect(sandbox.read("config/miga/config.toml") == wrongTypes)

        // A fortune file with no % delimiters is one long entry, which the
        // pause cuts to fit, rather than a crash or 500 one-line quotes.
        try String(repeating: "a line of a fortune with no end\n", count: 500)
            .write(toFile: sandbox.root + "/fortunes", atomically: true, encoding: .utf8)
        let imported = try run(migaBinary, ["quotes", "import", sandbox.root + "/fortunes"], environment: sandbox.environment)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output == "Imported 1 quote tagged Fortunes.\n")
    }

    /// A config that exists but cannot be read is no first run: the hub
    /// opens with the programs MIGA knows of from its shims, saying why
    /// from its first frame; `miga list` and `miga setup` say so and stop.
    @Test func a_config_that_cannot_be_read_never_looks_like_a_first_run() throws {
        let protect = try run(migaBinary, ["protect", "argv-dump"], environment: sandbox.environment)
        #expect(protect.status == 0, "\(protect.error)")
        let broken = "[programs.argv-dump\n"
        try sandbox.config(broken)

        let hub = try Tmux(command: try sandbox.migaScript([], named: "hub.sh"), environment: sandbox.environment)
        let first = try hub.waitForScreen("the hub, or setup") { $0.contains("q quit") || $0.contains("1 / 12") }
        let flat = first.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(!first.contains("1 / 12") && first.contains("Argv-dump"), "\(first)")
        #expect(flat.contains("config.toml:1"), "no word of the config on the hub's first frame:\n\(first)")
        try hub.send("q")
        #expect(try sandbox.status(of: "hub.sh") == 0)

        let list = try run(migaBinary, ["list"], environment: sandbox.environment)
        #expect(list.status == ExitStatus.dataError, "\(list)")
        #expect(list.output.isEmpty && list.error.contains("cannot be read") && list.error.contains("config.toml:1"), "\(list)")
        let setup = try Tmux(command: try sandbox.migaScript(["setup"], named: "setup.sh"), environment: sandbox.environment)
        #expect(try sandbox.status(of: "setup.sh") == ExitStatus.dataError)
        try setup.waitForScreen("why setup stopped") { $0.replacingOccurrences(of: "\n", with: "").contains("config.toml:1") }
        #expect(sandbox.read("config/miga/config.toml") == broken)
        let doctor = try run(migaBinary, ["doctor"], environment: sandbox.environment)
        #expect(doctor.status == 1)
        #expect(doctor.output.contains("✗ programs: not known while the config cannot be read"), "\(doctor.output)")
        #expect(!doctor.output.contains("none protected yet"), "\(doctor.output)")

        // A value it cannot use is said on the hub's first frame too, cause first.
        try sandbox.config("pause = \"ten\"\n[programs.argv-dump]\n")
        let again = try Tmux(command: try sandbox.migaScript([], named: "again.sh"), environment: sandbox.environment)
        let screen = try again.waitForScreen("the hub") { $0.contains("q quit") }
        let said = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(said.contains("`pause` must be") && said.contains("config.toml:1"), "\(screen)")
    }

    @Test(arguments: ["fifo", "zero"])
    func a_config_or_quote_file_that_is_a_pipe_or_a_device_never_stops_the_program(kind: String) throws {
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/miga/quotes", withIntermediateDirectories: true)
        for path in [sandbox.root + "/config/miga/config.toml", sandbox.root + "/config/miga/quotes/mine.txt"] {
            if kind == "fifo" {
                #expect(mkfifo(path, 0o600) == 0)
            } else {
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
            }
        }
        let started = Date()
        let result = try run(migaBinary, ["gate", "argv-dump", "--", "still"], environment: sandbox.environment)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 7, "\(result.error)")
        #expect(sandbox.bytes("argv") == Array("still\u{0}".utf8))
        // In a terminal the pause opens, says why, and the program starts after it.
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "1", "argv-dump", "--", "paused"]), environment: sandbox.environment)
        try tmux.waitForScreen("the pause, at zero") { $0.contains("the choice is yours") }
        try tmux.send("p")
        #expect(try sandbox.status() == 7)
        #expect(sandbox.bytes("argv") == Array("paused\u{0}".utf8))
    }

    /// SQLite is opened when the history is first needed, not by the loader:
    /// a machine whose libsqlite3 is missing or broken still starts protected
    /// programs, and says why nothing was recorded.
    @Test func a_broken_sqlite_library_never_stops_the_program() throws {
        let libraries = sandbox.root + "/broken-libraries"
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        try "not a library".write(toFile: libraries + "/libsqlite3.so.0", atomically: true, encoding: .utf8)
        var environment = sandbox.environment
        environment["LD_LIBRARY_PATH"] = libraries
        let result = try run(migaBinary, ["gate", "argv-dump", "--", "still"], environment: environment)
        #expect(result.status == 7, "\(result.error)")
        #expect(sandbox.bytes("argv") == Array("still\u{0}".utf8))
        let tmux = try Tmux(command: try sandbox.gateScript(["--pause", "1", "argv-dump", "--", "paused"]), environment: environment)
        try tmux.waitForScreen("the pause, at zero") { $0.contains("the choice is yours") }
        try tmux.send("p")
        #expect(try sandbox.status() == 7)
        #expect(sandbox.bytes("argv") == Array("paused\u{0}".utf8))
        // What needs the history says why it cannot have it, and fails.
        let stats = try run(migaBinary, ["stats"], environment: environment)
        #expect(stats.status == 1, "\(stats.output)")
        #expect(stats.error.contains("libsqlite3.so.0") && stats.error.contains("file too short"), "\(stats.error)")
    }
}
