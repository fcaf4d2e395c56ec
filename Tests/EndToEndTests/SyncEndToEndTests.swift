import Foundation
import Testing
import MIGATestSupport
@testable import MIGACore
@testable import MIGAStore
@testable import MIGADesktop

/// `miga sync` as a person runs it, by hand and from its timer: another
/// machine's file read on from where the last sync stopped, what could not
/// be read named by sync and by doctor, and the timer written, shown and
/// taken away.
@Suite(.endToEnd) struct SyncEndToEndTests {
    let sandbox = Sandbox()
    let other = "5ca1ab1e-0000-4000-8000-00000000000d"
    var shared: String { sandbox.root + "/Sync" }
    var peerName: String { "miga-\(other).jsonl" }
    var peerFile: String { shared + "/" + peerName }

    init() throws {
        try FileManager.default.createDirectory(atPath: sandbox.root + "/Sync", withIntermediateDirectories: true)
    }

    func miga(_ arguments: String..., environment extra: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        try run(migaBinary, arguments, environment: sandbox.environment.merging(extra) { $1 })
    }

    /// A session of the other machine's, as its file holds it.
    func line(_ id: String) -> String {
        "{\"deepen_count\":0,\"device\":\"\(other)\",\"ended_at\":\"2026-01-01T10:01:00.000Z\",\"id\":\"\(id)\",\"outcome\":\"exit\","
            + "\"paused_seconds\":60,\"program\":\"steam\",\"quotes\":[],\"started_at\":\"2026-01-01T10:00:00.000Z\"}\n"
    }

    /// Another machine's file that cannot be read (here a folder in its
    /// place) is named, the others are synced all the same, and the status
    /// says it, so that a timer's run is marked as failed; once mended, 0.
    @Test func a_peer_file_that_cannot_be_read_makes_the_sync_fail_after_the_others_are_synced() throws {
        try FileManager.default.createDirectory(atPath: peerFile, withIntermediateDirectories: true)
        let third = "5ca1ab1e-0000-4000-8000-00000000000c"
        try line("theirs").replacingOccurrences(of: other, with: third)
            .write(toFile: shared + "/miga-\(third).jsonl", atomically: true, encoding: .utf8)
        let failed = try miga("sync", shared)
        #expect(failed.status == 1, "\(failed.output)\(failed.error)")
        #expect(failed.output.contains("\(peerName) is not a regular file"), "\(failed.output)")
        #expect(try sandbox.sessions().map(\.id) == ["theirs"])
        try FileManager.default.removeItem(atPath: peerFile)
        try line("mine").write(toFile: peerFile, atomically: true, encoding: .utf8)
        let mended = try miga("sync", shared)
        #expect(mended.status == 0, "\(mended.output)\(mended.error)")
        #expect(Set(try sandbox.sessions().map(\.id)) == ["theirs", "mine"])
    }

    /// A machine's file larger than one sync reads (a year of another
    /// machine's sessions, 64 MiB and more): each sync reads as much as it
    /// reads and names the file, with what is left; doctor names it until
    /// the syncs after have read the rest.
    @Test func a_peer_file_over_what_one_sync_reads_is_named_by_sync_and_doctor_and_read_on() throws {
        let junk = String(repeating: "x", count: 1023) + "\n"
        let text = line("first") + String(repeating: junk, count: 65 * 1024) + line("last")
        try text.write(toFile: peerFile, atomically: true, encoding: .utf8)
        let first = try miga("sync", shared)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.contains("\(peerName) holds more that is new than one sync reads: read 64.0 MiB of its 65.0 MiB new; "
                                      + "the rest at the next sync."), "\(first.output)")
        let doctor = try miga("doctor")
        #expect(doctor.output.contains("✗ sync: \(realpath(peerFile) ?? peerFile) holds more that is new than one sync reads"),
                "\(doctor.output)")
        #expect(doctor.output.contains("fix: miga sync \(realpath(shared) ?? shared) reads on from where it stopped"), "\(doctor.output)")
        #expect(try sandbox.sessions().map(\.id) == ["first"])

        let second = try miga("sync", shared)
        #expect(second.status == 0 && !second.output.contains("holds more"), "\(second.output)")
        #expect(!(try miga("doctor").output.contains("sync:")))
        #expect(Set(try sandbox.sessions().map(\.id)) == ["first", "last"])
    }

    /// What a sync has read it does not read again: a line changed where the
    /// file was read already is not taken in (no machine rewrites its file;
    /// this one stands for bytes that were not read), the line appended is.
    /// Lines set aside are said by the sync that meets them, once.
    @Test func a_sync_reads_only_what_was_appended_to_a_peer_file_and_says_what_it_set_aside_once() throws {
        let lines = (0..<100).map { line(String(format: "s%03d", $0)) }
        try (lines.joined() + "not a session\n").write(toFile: peerFile, atomically: true, encoding: .utf8)
        let first = try miga("sync", shared)
        #expect(first.output.contains("\(peerName): set aside 1 line that is not a whole, possible session of its machine"),
                "\(first.output)")
        var changed = lines
        changed[5] = line("x005")
        try (changed.joined() + "not a session\n" + line("appended")).write(toFile: peerFile, atomically: true, encoding: .utf8)
        let second = try miga("sync", shared)
        #expect(second.status == 0 && !second.output.contains("set aside"), "\(second.output)")
        let ids = Set(try sandbox.sessions().map(\.id))
        #expect(ids.count == 101 && ids.contains("appended") && !ids.contains("x005"))
    }

    /// `--timer`: the units written where MIGA writes its others, valid for
    /// systemd, naming this folder (spaces and signs as systemd reads them
    /// back); doctor says what it syncs; `--no-timer` and uninstall take them away.
    @Test func the_sync_timer_is_written_shown_by_doctor_and_removed() throws {
        let odd = sandbox.root + "/My Sync $HOME 100%"
        try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
        let units = sandbox.root + "/config/systemd/user"
        let installed = try miga("sync", odd, "--timer")
        #expect(installed.status == 0, "\(installed.error)")
        #expect(installed.output.contains("Wrote \(units)/miga-sync.timer; no systemd user manager runs here"), "\(installed.output)")
        let runtime = sandbox.root + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verify = try run("/usr/bin/systemd-analyze", ["verify", "--user", units + "/miga-sync.timer", units + "/miga-sync.service"],
                             environment: sandbox.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        #expect(verify.status == 0 && verify.error.isEmpty, "\(verify.error)")
        let doctor = try miga("doctor")
        #expect(doctor.output.contains("· sync: miga-sync.timer would sync \(odd), but no systemd user manager runs here"),
                "\(doctor.output)")

        let removed = try miga("sync", "--no-timer")
        #expect(removed.status == 0 && removed.output.contains("Removed miga-sync.timer"), "\(removed.output)")
        #expect(!FileManager.default.fileExists(atPath: units + "/miga-sync.timer"))
        #expect(!FileManager.default.fileExists(atPath: units + "/miga-sync.service"))
        #expect(!(try miga("doctor").output.contains("sync:")))

        #expect(try miga("sync", shared, "--timer").status == 0)
        #expect(try miga("doctor").output.contains("· sync: miga-sync.timer would sync \(realpath(shared) ?? shared)"))
        // The package's templated timer enabled as well: doctor says that two timers sync.
        let wants = units + "/timers.target.wants"
        try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
        let packaged = "miga-sync@home-a-Sync.timer"
        try FileManager.default.createSymbolicLink(atPath: wants + "/" + packaged, withDestinationPath: "/usr/lib/systemd/user/miga-sync@.timer")
        let both = try miga("doctor")
        #expect(both.output.contains("✗ sync: \(packaged) is enabled too, and syncs on its own beside miga-sync.timer"), "\(both.output)")
        #expect(both.output.contains("fix: keep one: miga sync --no-timer, or: systemctl --user disable --now '\(packaged)'"), "\(both.output)")
        try FileManager.default.removeItem(atPath: wants + "/" + packaged)
        #expect(try miga("uninstall", "--now").status == 0)
        #expect(!FileManager.default.fileExists(atPath: units + "/miga-sync.timer"))
        #expect(!FileManager.default.fileExists(atPath: units + "/miga-sync.service"))
    }

    /// The timer MIGA writes runs when the package's template does.
    @Test func the_timer_runs_when_the_packages_timer_does() throws {
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("packaging/systemd/miga-sync@.timer").path
        let text = try String(contentsOfFile: shipped, encoding: .utf8)
        let timer = text.components(separatedBy: "[Timer]\n").last?.components(separatedBy: "\n\n").first
        #expect(timer?.split(separator: "\n").map(String.init) == SyncTimer.schedule)
    }

    @Test func a_folder_s_name_is_written_in_a_unit_as_systemd_reads_it_back() {
        for name in ["/home/a b/Sync", "/srv/100%/$HOME/x", "/é/\"quoted\" 'and' \\back;slash", "/plain/Sync-2.miga", "/line\nbreak\t/Sync"] {
            let written = UnitArgument(name).written
            #expect(!written.contains(" ") && !written.contains("\"") && !written.contains("'") && !written.contains(";"))
            #expect(!written.unicodeScalars.contains { $0.value < 0x20 })
            #expect(UnitArgument(written: written)?.value == name, "\(written)")
        }
    }
}
